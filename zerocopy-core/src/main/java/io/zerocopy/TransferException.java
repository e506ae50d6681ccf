package io.zerocopy;

import java.io.IOException;

/**
 * A transfer failed after it started. {@link #bytesTransferred()} says how many bytes reached the
 * target before it failed; the original exception, if any, is the {@linkplain #getCause() cause}.
 *
 * <p>Every {@code IOException} raised while bytes move reaches the caller as a
 * {@code TransferException} (or one of its subclasses), so a caller that needs to resume or report
 * never has to guess how far a transfer got. Problems found before the first byte moves (bad
 * arguments, a closed channel, a file that cannot be opened) are thrown as they are, but for an
 * interrupt pending when a verb is called: a {@code TransferException} of 0 bytes, caused by an
 * {@code InterruptedIOException}, as for an interrupt seen between a transfer's calls.
 */
public class TransferException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long bytesTransferred;

    /**
     * @param message what went wrong, in words
     * @param bytesTransferred bytes that reached the target before the failure
     * @param cause the underlying exception, or {@code null}
     */
    public TransferException(String message, long bytesTransferred, Throwable cause) {
        super(message, cause);
        this.bytesTransferred = Checks.notNegative(bytesTransferred, "bytesTransferred");
    }

    /** The bytes that reached the target before the failure. */
    public long bytesTransferred() {
        return bytesTransferred;
    }
}
