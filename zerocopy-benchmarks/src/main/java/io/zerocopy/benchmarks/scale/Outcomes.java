package io.zerocopy.benchmarks.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * How each of the N transfers of one run ended: when it started, when the peer confirmed it, or
 * why it failed. Written by the transfer threads (or the selector loop), read by the runner; each
 * transfer settles once, and the first word wins.
 */
final class Outcomes {
    private final AtomicLongArray started;
    private final AtomicLongArray ended;
    private final AtomicReferenceArray<String> failures;
    private final AtomicIntegerArray settled;
    private final CountDownLatch pending;

    Outcomes(int n) {
        started = new AtomicLongArray(n);
        ended = new AtomicLongArray(n);
        failures = new AtomicReferenceArray<>(n);
        settled = new AtomicIntegerArray(n);
        pending = new CountDownLatch(n);
    }

    int size() {
        return started.length();
    }

    void started(int i, long nanos) {
        started.set(i, nanos);
    }

    void succeeded(int i, long nanos) {
        if (settled.compareAndSet(i, 0, 1)) {
            ended.set(i, nanos);
            pending.countDown();
        }
    }

    void failed(int i, String why) {
        if (settled.compareAndSet(i, 0, 2)) {
            failures.set(i, why);
            pending.countDown();
        }
    }

    void failed(int i, Throwable failure) {
        failed(i, describe(failure));
    }

    /** Waits until every transfer settled, or the deadline ({@code System.nanoTime()}) passed. */
    boolean await(long deadline) throws InterruptedException {
        return pending.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    boolean allSettled() {
        return pending.getCount() == 0;
    }

    /** Fails every transfer that has not settled yet. */
    void failUnsettled(String why) {
        for (int i = 0; i < size(); i++) {
            failed(i, why);
        }
    }

    int successes() {
        int count = 0;
        for (int i = 0; i < size(); i++) {
            count += settled.get(i) == 1 ? 1 : 0;
        }
        return count;
    }

    /** The last confirmation, or {@code fallback} if none succeeded. */
    long lastEnd(long fallback) {
        long last = Long.MIN_VALUE;
        for (int i = 0; i < size(); i++) {
            if (settled.get(i) == 1) {
                last = Math.max(last, ended.get(i));
            }
        }
        return last == Long.MIN_VALUE ? fallback : last;
    }

    /** Each successful transfer's time from its own start to the peer's confirmation, in ms. */
    List<Double> millis() {
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            if (settled.get(i) == 1) {
                times.add((ended.get(i) - started.get(i)) / 1e6);
            }
        }
        return times;
    }

    String firstFailure() {
        for (int i = 0; i < size(); i++) {
            if (settled.get(i) == 2) {
                return failures.get(i);
            }
        }
        return "";
    }

    /** The exception and its causes, one line: {@code TransferException: ... <- OutOfMemoryError: ...}. */
    static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null && text.length() < 400; t = t.getCause()) {
            if (text.length() > 0) {
                text.append(" <- ");
            }
            text.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                text.append(": ").append(t.getMessage());
            }
        }
        return text.toString().replace('\n', ' ').replace('\r', ' ');
    }
}
