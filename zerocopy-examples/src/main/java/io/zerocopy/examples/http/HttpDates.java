package io.zerocopy.examples.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HTTP dates (RFC 9110 section 5.6.7): formats IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT})
 * and parses it and the two obsolete forms a recipient must still accept.
 */
final class HttpDates {

    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
            .withZone(ZoneOffset.UTC);

    /** {@code Sunday, 06-Nov-94 08:49:37 GMT}; two-digit years from 1970 on, as the RFC suggests. */
    private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
            .appendPattern("EEEE, dd-MMM-")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
            .appendPattern(" HH:mm:ss 'GMT'")
            .toFormatter(Locale.US);

    /** {@code Sun Nov  6 08:49:37 1994}: the day is padded with a space. */
    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

    /**
     * Last-Modified values already formatted: a server sends the same few files' dates over and
     * over, and formatting costs more than the rest of a small response's head.
     */
    private static final Map<Long, String> FORMATTED = new ConcurrentHashMap<>();

    private static final int MAX_CACHED = 4096;

    /** The Date header's value for the current second; recomputed at most once a second. */
    private static volatile Cached now = new Cached(Long.MIN_VALUE, "");

    private record Cached(long second, String text) {}

    private HttpDates() {}

    /** IMF-fixdate of the current time, cached per second (every response carries one). */
    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Cached cached = now;
        if (cached.second != second) {
            cached = new Cached(second, IMF_FIXDATE.format(Instant.ofEpochSecond(second)));
            now = cached;
        }
        return cached.text;
    }

    /** IMF-fixdate of a time in seconds since the epoch. */
    static String format(long epochSecond) {
        String text = FORMATTED.get(epochSecond);
        if (text == null) {
            if (FORMATTED.size() >= MAX_CACHED) {
                FORMATTED.clear();
            }
            text = IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
            FORMATTED.put(epochSecond, text);
        }
        return text;
    }

    /**
     * Seconds since the epoch of a date in any of the three HTTP forms, or {@code Long.MIN_VALUE}
     * if the text is none of them (the header is then ignored, as RFC 9110 asks).
     */
    static long parse(String text) {
        String s = text.trim();
        for (DateTimeFormatter format : new DateTimeFormatter[] {IMF_FIXDATE, RFC_850, ASCTIME}) {
            try {
                return LocalDateTime.parse(s, format.withZone(null)).toEpochSecond(ZoneOffset.UTC);
            } catch (DateTimeException e) {
                // try the next form
            }
        }
        return Long.MIN_VALUE;
    }
}
