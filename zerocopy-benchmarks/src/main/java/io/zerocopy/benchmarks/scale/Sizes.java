package io.zerocopy.benchmarks.scale;

import java.util.Locale;

/** Byte sizes as the command line and the tables write them: {@code 64k}, {@code 8m}, {@code 64 KiB}. */
final class Sizes {
    private Sizes() {}

    /** Parses {@code 65536}, {@code 64k}, {@code 8m} or {@code 1g}. */
    static long parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
            unit = t.endsWith("k") ? 1L << 10 : t.endsWith("m") ? 1L << 20 : 1L << 30;
            t = t.substring(0, t.length() - 1);
        }
        try {
            long value = Long.parseLong(t) * unit;
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("size: " + text + " (expected: bytes > 0, or a number with k, m or g)");
    }

    /** {@code 64 KiB}, {@code 8 MiB}, {@code 256 MiB}; plain bytes when not a whole KiB. */
    static String format(long bytes) {
        if (bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
