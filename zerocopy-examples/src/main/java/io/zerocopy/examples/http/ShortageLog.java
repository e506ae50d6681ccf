package io.zerocopy.examples.http;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The error log's line for a request answered 503 because its file could not be opened for lack of
 * descriptors or memory, as nginx logs "Too many open files", or because a writer kept replacing it
 * while it was opened: at most one line a second, since a shortage comes in floods, each counting
 * the requests since the line before. Thread-safe.
 */
final class ShortageLog {

    /** At most one line per this many nanoseconds: one second. */
    static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final PrintStream out;
    private boolean logged;
    private long lastNanos;
    private long since;

    /** A log that writes to {@code out} (standard error in the server). */
    ShortageLog(PrintStream out) {
        this.out = out;
    }

    /** Records one request for {@code target} answered 503 for {@code reason}; logs it unless a line went out within the interval. */
    void record(String target, String reason) {
        String line;
        synchronized (this) {
            since++;
            long now = System.nanoTime();
            if (logged && now - lastNanos < INTERVAL_NANOS) {
                return;
            }
            line = String.format(
                    Locale.ROOT,
                    "http-server: 503 for %s: %s (%d such request%s since the last line)",
                    target,
                    reason,
                    since,
                    since == 1 ? "" : "s");
            logged = true;
            lastNanos = now;
            since = 0;
        }
        out.println(line);
    }
}
