package io.zerocopy;

/** Preconditions that fail fast in one format: {@code "position: -1 (expected: >= 0)"}. */
final class Checks {
    private Checks() {}

    static long notNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
        return value;
    }

    static long inRange(long value, long min, long max, String name) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }
}
