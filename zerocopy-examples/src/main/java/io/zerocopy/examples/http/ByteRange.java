package io.zerocopy.examples.http;

import java.util.Locale;

/**
 * The one byte range a {@code Range} header asks for (RFC 9110 section 14), resolved against the
 * file's size: {@code bytes=a-b}, {@code bytes=a-} or {@code bytes=-n}.
 *
 * <p>A header that is malformed, names another unit, or asks for several ranges yields
 * {@link #WHOLE}: the server then answers 200 with the whole file, which the RFC allows (a server
 * may ignore Range) and which spares it multipart bodies. A single range that starts at or after the
 * end of the file, or a suffix of length 0, yields {@link #UNSATISFIABLE} (a 416). Any other suffix
 * of an empty file yields {@link #WHOLE}: it is satisfiable (RFC 9110 14.1.2), and the whole
 * representation, which a 206 cannot name, is what it asks for.
 *
 * @param first the first byte, inclusive
 * @param last the last byte, inclusive
 */
record ByteRange(long first, long last) {

    /** Not a usable single range: serve the whole file. */
    static final ByteRange WHOLE = new ByteRange(-1, -1);

    /** A single range that does not overlap the file: 416. */
    static final ByteRange UNSATISFIABLE = new ByteRange(-2, -2);

    /** Number of bytes in the range. */
    long length() {
        return last - first + 1;
    }

    /** The range a header value asks for in a file of {@code size} bytes. */
    static ByteRange parse(String header, long size) {
        int equals = header.indexOf('=');
        if (equals < 0
                || !header.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("bytes")) {
            return WHOLE;
        }
        String spec = null;
        for (String element : header.substring(equals + 1).split(",", -1)) {
            String trimmed = element.trim();
            if (trimmed.isEmpty()) {
                continue; // empty list elements are allowed (RFC 9110 5.6.1)
            }
            if (spec != null) {
                return WHOLE; // several ranges: the whole file instead of multipart/byteranges
            }
            spec = trimmed;
        }
        if (spec == null) {
            return WHOLE;
        }
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return WHOLE;
        }
        long first = number(spec.substring(0, dash));
        long last = number(spec.substring(dash + 1));
        if (dash == 0) {
            if (last < 0) {
                return WHOLE;
            }
            if (last == 0) {
                return UNSATISFIABLE;
            }
            if (size == 0) {
                return WHOLE; // a 200 with the empty body: no Content-Range can name a range of nothing
            }
            return new ByteRange(Math.max(0, size - last), size - 1);
        }
        if (first < 0 || (dash < spec.length() - 1 && last < 0) || (last >= 0 && last < first)) {
            return WHOLE;
        }
        if (first >= size) {
            return UNSATISFIABLE;
        }
        return new ByteRange(first, last < 0 ? size - 1 : Math.min(last, size - 1));
    }

    /**
     * A decimal of one or more digits, or -1. One too big for a long is {@code Long.MAX_VALUE}, past
     * the end of any file, as the RFC's unbounded numbers mean: a first byte there is unsatisfiable,
     * a last byte or a suffix that long reaches the end.
     */
    private static long number(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            int digit = s.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            n = n > (Long.MAX_VALUE - digit) / 10 ? Long.MAX_VALUE : n * 10 + digit;
        }
        return n;
    }
}
