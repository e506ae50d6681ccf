package io.zerocopy;

import java.time.Duration;
import java.util.Objects;

/**
 * What a finished transfer did: how many bytes it moved, with which strategy and why, and how long
 * it took. Immutable; handed to {@link TransferListener#onComplete}.
 */
public final class TransferResult {
    private final long bytes;
    private final Choice choice;
    private final Duration elapsed;

    /** The result of a transfer made by {@code choice}, whose reason is put into words when first read. */
    TransferResult(long bytes, Choice choice, Duration elapsed) {
        this.bytes = bytes;
        this.choice = Objects.requireNonNull(choice, "choice");
        this.elapsed = Objects.requireNonNull(elapsed, "elapsed");
    }

    /** The bytes moved into the target. */
    public long bytesTransferred() {
        return bytes;
    }

    /** The name of the strategy that ran, such as {@code "transferTo"}. */
    public String strategy() {
        return choice.strategy.name();
    }

    /** Why the strategy was chosen, in words, such as {@code "sendfile(2) from a file to a socket"}. */
    public String reason() {
        return choice.reason();
    }

    /** Wall-clock time from the first step to the last, including waits and rate limiting. */
    public Duration elapsed() {
        return elapsed;
    }

    @Override
    public String toString() {
        return "TransferResult{" + bytes + " bytes via " + strategy() + " in " + elapsed.toMillis() + " ms (" + reason()
                + ")}";
    }
}
