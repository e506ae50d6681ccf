package io.zerocopy.examples;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as a command line writes them ({@code 7M}, {@code 1G}) and as a person reads them ({@code 7 MiB}). */
final class ByteSizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMG]?)(?:i?B)?", Pattern.CASE_INSENSITIVE);

    private ByteSizes() {}

    /**
     * Parses a positive number of bytes with an optional K, M or G (binary units, any case, an
     * optional {@code B} or {@code iB} after it).
     *
     * @throws IllegalArgumentException naming the text and what was expected
     */
    static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim());
        long value;
        try {
            value = m.matches() ? Long.parseLong(m.group(1)) : -1;
        } catch (NumberFormatException e) {
            value = -1;
        }
        int shift = m.matches()
                ? switch (m.group(2).toUpperCase(Locale.ROOT)) {
                    case "K" -> 10;
                    case "M" -> 20;
                    case "G" -> 30;
                    default -> 0;
                }
                : 0;
        if (value < 1 || value > (Long.MAX_VALUE >> 1 >> shift)) {
            throw new IllegalArgumentException(
                    text + " (expected: a positive number of bytes with an optional K, M or G, such as 7M or 1G)");
        }
        return value << shift;
    }

    /** A size as a person reads it: 7 MiB, 1 GiB, 64 KiB, or bytes. */
    static String label(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes >= 1L << 20 ? String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0) : bytes + " B";
    }
}
