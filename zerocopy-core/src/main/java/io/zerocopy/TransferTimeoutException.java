package io.zerocopy;

import java.time.Duration;

/**
 * No byte moved for longer than the {@linkplain TransferOptions.Builder#stallTimeout stall timeout}.
 *
 * <p>The transfer was abandoned; the channels are left open and as they were, and
 * {@link #bytesTransferred()} says how far it got.
 */
public final class TransferTimeoutException extends TransferException {
    private static final long serialVersionUID = 1L;

    private final Duration stallTimeout;

    /**
     * @param bytesTransferred bytes that reached the target before the stall
     * @param stallTimeout the timeout that ran out
     */
    public TransferTimeoutException(long bytesTransferred, Duration stallTimeout) {
        super("no progress for " + stallTimeout.toMillis() + " ms after " + bytesTransferred + " bytes",
                bytesTransferred, null);
        this.stallTimeout = stallTimeout;
    }

    /** The stall timeout that ran out. */
    public Duration stallTimeout() {
        return stallTimeout;
    }
}
