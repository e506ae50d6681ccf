package io.zerocopy.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * What an accepting thread does after an accept failed: it pauses for {@link #PAUSE_NANOS}, and says
 * so in at most one line a second, each counting the failures since the line before. A failed accept
 * is nearly always a lack of descriptors (the JDK's "Too many open files", {@code EMFILE} or {@code
 * ENFILE}) or a connection reset before it was accepted; the listening socket stays ready, so an
 * accept retried at once would fail again and spin a core until a descriptor frees. Used by the
 * {@code server} and {@code relay} examples; both {@code http-server} engines pause as long. Not
 * thread-safe: one instance per accepting thread.
 */
public final class FailedAccepts {

    /**
     * How long accepting stops after an accept failed: long enough for a connection to finish and
     * free a descriptor, short enough that a client in the listen backlog hardly notices.
     */
    public static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** At most one line per this many nanoseconds: one second. */
    static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String name;
    private final PrintStream log;
    private final LongSupplier nanoTime;
    private boolean logged;
    private long lastNanos;
    private long since;

    /** Failed accepts of the program {@code name}, logged to {@code log} (standard error in the examples). */
    FailedAccepts(String name, PrintStream log) {
        this(name, log, System::nanoTime);
    }

    /** As above, with the clock that paces the log ({@code System.nanoTime} but in a test). */
    FailedAccepts(String name, PrintStream log, LongSupplier nanoTime) {
        this.name = name;
        this.log = log;
        this.nanoTime = nanoTime;
    }

    /** Records the failed accept {@code e}, logs it unless a line went out within the interval, then pauses. */
    void pauseAfter(IOException e) {
        since++;
        long now = nanoTime.getAsLong();
        if (!logged || now - lastNanos >= LOG_INTERVAL_NANOS) {
            log.println(String.format(
                    Locale.ROOT,
                    "%s: accept failed, accepting again in %d ms: %s (%d failed accept%s since the last line)",
                    name,
                    TimeUnit.NANOSECONDS.toMillis(PAUSE_NANOS),
                    Main.describe(e),
                    since,
                    since == 1 ? "" : "s"));
            logged = true;
            lastNanos = now;
            since = 0;
        }
        LockSupport.parkNanos(PAUSE_NANOS);
    }
}
