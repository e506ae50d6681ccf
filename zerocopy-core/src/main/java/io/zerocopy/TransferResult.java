package io.zerocopy;

import java.time.Duration;
import java.util.Objects;

/**
 * What a finished transfer did: how many bytes it moved, with which strategy and why, and how long
 * it took. Immutable; handed to {@link TransferListener#onComplete}.
 */
public final class TransferResult {
    private final long bytes;
    private final String strategy;
    private final String reason;
    private final Duration elapsed;

    TransferResult(long bytes, String strategy, String reason, Duration elapsed) {
        this.bytes = bytes;
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.reason = Objects.requireNonNull(reason, "reason");
        this.elapsed = Objects.requireNonNull(elapsed, "elapsed");
    }

    /** The bytes moved into the target. */
    public long bytes() {
        return bytes;
    }

    /** The name of the strategy that ran, such as {@code "transferTo"}. */
    public String strategy() {
        return strategy;
    }

    /** Why the strategy was chosen, in words, such as {@code "sendfile(2) from a file to a socket"}. */
    public String reason() {
        return reason;
    }

    /** Wall-clock time from the first step to the last, including waits and rate limiting. */
    public Duration elapsed() {
        return elapsed;
    }

    @Override
    public String toString() {
        return "TransferResult{" + bytes + " bytes via " + strategy + " in " + elapsed.toMillis() + " ms (" + reason + ")}";
    }
}
