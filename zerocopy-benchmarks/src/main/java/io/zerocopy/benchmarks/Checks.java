package io.zerocopy.benchmarks;

/** Keeps a broken contender from posting a fast time for copying less than asked. */
final class Checks {
    private Checks() {}

    static long moved(long moved, long expected, String contender) {
        if (moved != expected) {
            throw new IllegalStateException(contender + " moved " + moved + " bytes, expected " + expected);
        }
        return moved;
    }
}
