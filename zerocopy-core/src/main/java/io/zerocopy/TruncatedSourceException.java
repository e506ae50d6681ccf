package io.zerocopy;

/**
 * The source file became shorter than the size taken when the transfer started, so the promised
 * bytes cannot all be sent.
 *
 * <p>{@code FileChannel.transferTo} answers a truncated file by returning 0 for ever; the engine
 * notices, checks the file's size, and throws this instead of spinning. A file that grows during a
 * transfer is not an error: only the size taken at the start is sent.
 *
 * <p>{@link #bytesTransferred()} counts what the target accepted: the file's bytes as a read found
 * them, except near the cut. {@code sendfile} ({@code transferTo} and {@code native} into a socket
 * or pipe) may already have queued pages that the truncation then emptied, which go as zeros, as
 * from a plain JDK {@code transferTo} loop; with {@code mmap} the last bytes may be zeros read from
 * pages the file no longer covers. A receiver that was promised the length sees a short body.
 */
public final class TruncatedSourceException extends TransferException {
    private static final long serialVersionUID = 1L;

    private final long expectedSize;
    private final long actualSize;

    /**
     * @param bytesTransferred bytes that reached the target before the failure
     * @param expectedSize the file size the transfer relied on (the end of the slice)
     * @param actualSize the file size found when the transfer could not go on
     * @param cause the exception that revealed the truncation, or {@code null}
     */
    public TruncatedSourceException(long bytesTransferred, long expectedSize, long actualSize, Throwable cause) {
        this(bytesTransferred, expectedSize, actualSize, cause, "");
    }

    /** As the public constructor, the message ending with {@code subject} (which file, which peer). */
    TruncatedSourceException(
            long bytesTransferred, long expectedSize, long actualSize, Throwable cause, String subject) {
        super(
                "file shrank from " + expectedSize + " to " + actualSize + " bytes during transfer, after "
                        + bytesTransferred + " bytes" + subject,
                bytesTransferred,
                cause);
        this.expectedSize = expectedSize;
        this.actualSize = actualSize;
    }

    /** The file size the transfer relied on: at least the end of the slice being sent. */
    public long expectedSize() {
        return expectedSize;
    }

    /** The file size found when the transfer could not go on. */
    public long actualSize() {
        return actualSize;
    }
}
