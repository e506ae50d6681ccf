package io.zerocopy;

/**
 * The source file became shorter than the size taken when the transfer started, so the promised
 * bytes cannot all be sent.
 *
 * <p>{@code FileChannel.transferTo} answers a truncated file by returning 0 for ever; the engine
 * notices, checks the file's size, and throws this instead of spinning. A file that grows during a
 * transfer is not an error: only the size taken at the start is sent.
 *
 * <p>{@link #bytesTransferred()} counts what the target accepted. With the {@code transferTo},
 * {@code transferFrom} and {@code buffered} strategies those are the file's bytes; with
 * {@code mmap} the last of them may be zeros read from pages the file no longer covers.
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
