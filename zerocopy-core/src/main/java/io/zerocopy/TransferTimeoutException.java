package io.zerocopy;

import java.time.Duration;

/**
 * No byte moved for longer than the {@linkplain TransferOptions.Builder#stallTimeout stall timeout}.
 *
 * <p>The transfer was abandoned; the channels are left open, and {@link #bytesTransferred()} says
 * how many bytes reached the target. With a source that is not a file (a socket, a stream), bytes
 * already read from it but not yet accepted by the target (at most one buffer) are lost with the
 * transfer: a proxy that wants to go on elsewhere cannot recover them.
 */
public final class TransferTimeoutException extends TransferException {
    private static final long serialVersionUID = 1L;

    private final Duration stallTimeout;

    /**
     * @param bytesTransferred bytes that reached the target before the stall
     * @param stallTimeout the timeout that ran out
     */
    public TransferTimeoutException(long bytesTransferred, Duration stallTimeout) {
        this(bytesTransferred, stallTimeout, "");
    }

    /** As the public constructor, the message ending with the transfer's ends ({@link TransferFailures#subject}). */
    TransferTimeoutException(long bytesTransferred, Duration stallTimeout, String subject) {
        super(
                "no progress for " + stallTimeout.toMillis() + " ms after " + bytesTransferred + " bytes" + subject,
                bytesTransferred,
                null);
        this.stallTimeout = stallTimeout;
    }

    /** The stall timeout that ran out. */
    public Duration stallTimeout() {
        return stallTimeout;
    }
}
