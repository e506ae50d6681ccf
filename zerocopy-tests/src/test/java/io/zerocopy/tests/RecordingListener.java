package io.zerocopy.tests;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferResult;
import io.zerocopy.testing.ListenerOrder;
import java.util.function.LongConsumer;

/**
 * Remembers what a transfer reported: the strategy, the progress steps (as a summary, so a
 * transfer of any size costs nothing here) and how it ended. An optional hook runs on every
 * progress callback, on the copying thread, so a test can act in the middle of a transfer.
 *
 * <p>A fake rather than a Mockito mock on purpose: a mock remembers every call with its stack
 * trace, and these transfers run to 4 GiB and more (thousands of progress calls each), on
 * other threads, with hooks that must act (truncate, interrupt, count down) as the copy runs.
 * Where only the order of calls matters, for transfers of a few MiB, tests use {@link ListenerOrder}.
 */
final class RecordingListener implements TransferListener {
    private final LongConsumer onProgressHook;

    private volatile String strategy;
    private volatile long expectedBytes = Long.MIN_VALUE;
    private volatile long steps;
    private volatile long firstProgress = -1;
    private volatile long lastProgress;
    private volatile long largestStep;
    private volatile boolean increasing = true;
    private volatile TransferResult result;
    private volatile TransferException failure;
    private volatile int endings;

    RecordingListener() {
        this(bytes -> {});
    }

    RecordingListener(LongConsumer onProgressHook) {
        this.onProgressHook = onProgressHook;
    }

    @Override
    public void onStart(String strategy, long expectedBytes) {
        this.strategy = strategy;
        this.expectedBytes = expectedBytes;
    }

    @Override
    public void onProgress(long bytesSoFar) {
        long step = bytesSoFar - lastProgress;
        if (step <= 0) {
            increasing = false;
        }
        largestStep = Math.max(largestStep, step);
        if (steps == 0) {
            firstProgress = bytesSoFar;
        }
        steps++;
        lastProgress = bytesSoFar;
        onProgressHook.accept(bytesSoFar);
    }

    @Override
    public void onComplete(TransferResult result) {
        this.result = result;
        endings++;
    }

    @Override
    public void onFailure(TransferException failure) {
        this.failure = failure;
        endings++;
    }

    /** The strategy named by {@code onStart}, or null if it was not called. */
    String strategy() {
        return strategy;
    }

    long expectedBytes() {
        return expectedBytes;
    }

    long steps() {
        return steps;
    }

    /** The byte count of the first progress callback, or -1. */
    long firstProgress() {
        return firstProgress;
    }

    long lastProgress() {
        return lastProgress;
    }

    /** The most bytes any single step moved. */
    long largestStep() {
        return largestStep;
    }

    /** Whether every progress callback reported more bytes than the one before. */
    boolean increasing() {
        return increasing;
    }

    TransferResult result() {
        return result;
    }

    TransferException failure() {
        return failure;
    }

    /** How many times onComplete or onFailure was called (1 for a well-behaved engine). */
    int endings() {
        return endings;
    }
}
