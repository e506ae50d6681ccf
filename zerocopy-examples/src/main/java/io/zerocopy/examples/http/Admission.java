package io.zerocopy.examples.http;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which new connections are served, which are answered 503 and which are closed without a word:
 * the one admission rule of both engines. Up to {@code maxConnections} are served at once; past
 * that, up to {@value #MAX_REFUSING} at a time get their 503, and the rest are dropped so that a
 * flood costs no more than a close each. Thread-safe.
 */
final class Admission {

    /** Refused connections being answered 503 at once; beyond this they are closed without a word. */
    static final int MAX_REFUSING = 64;

    /** What happens to a new connection. */
    enum Verdict {
        /** Served; {@link #release} with {@code refused = false} when it closes. */
        SERVE,
        /** Answered 503 and closed; {@link #release} with {@code refused = true} when it closes. */
        REFUSE,
        /** Closed at once without a word; nothing to release. */
        DROP
    }

    private final int maxConnections;
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicInteger refusing = new AtomicInteger();

    Admission(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** Decides for a connection just accepted, and counts it unless it is dropped. */
    Verdict admit() {
        if (served.incrementAndGet() <= maxConnections) {
            return Verdict.SERVE;
        }
        served.decrementAndGet();
        if (refusing.incrementAndGet() <= MAX_REFUSING) {
            return Verdict.REFUSE;
        }
        refusing.decrementAndGet();
        return Verdict.DROP;
    }

    /** A connection {@link #admit} counted has closed; {@code refused} says whether it was refused. */
    void release(boolean refused) {
        (refused ? refusing : served).decrementAndGet();
    }
}
