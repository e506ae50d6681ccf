package io.zerocopy;

/**
 * Observes one transfer: which strategy runs, how far it has got, how it ended.
 *
 * <p>For a {@code copy}, all methods are called on the thread that called it; for a
 * {@link Transfer} from {@code open}, on the thread that opened it ({@link #onStart}, and
 * {@link #onComplete} for a transfer of nothing, done when opened) and then on the thread that
 * calls {@link Transfer#advance()} or {@link Transfer#close()}. In order:
 * {@link #onStart} once, {@link #onProgress} after every step that moved bytes (a step is up to one
 * system call or one buffer, as many bytes as the channel took: one byte, from a channel that takes
 * one a call), then {@link #onComplete} or {@link #onFailure} once. A transfer that is rejected
 * before it starts (bad arguments) calls nothing.
 *
 * <p>A listener should be quick: the transfer waits for it. It may {@link Transfer#close()} its
 * own transfer (which then ends closed, heard by {@link #onFailure}), but not advance it: that
 * {@code advance()} throws {@code IllegalStateException}. An exception thrown by a listener
 * aborts the transfer and reaches the caller as it is, without {@link #onFailure}. Everything else
 * that goes wrong after {@link #onStart} reaches {@link #onFailure} first: an {@code IOException} or
 * unchecked exception from a channel, a stream, a mapping or a strategy as the
 * {@link TransferException} the caller then gets, and an {@code Error} wrapped in one before the
 * {@code Error} itself is thrown. One listener may observe several transfers at once if it is
 * shared between threads; it must then be thread-safe.
 */
public interface TransferListener {

    /** A listener that does nothing. */
    TransferListener NONE = new TransferListener() {
        @Override
        public String toString() {
            return "TransferListener.NONE";
        }
    };

    /**
     * The transfer is about to move its first byte.
     *
     * @param strategy the name of the strategy that will run, such as {@code "transferTo"}
     * @param count how many bytes the transfer will move, prefix included, as {@link Transfer#count()}
     *     says: {@code -1} when the source is read to end of stream and the total is not known in
     *     advance
     */
    default void onStart(String strategy, long count) {}

    /**
     * A step moved bytes.
     *
     * @param bytesTransferred bytes moved by this transfer so far, including this step
     */
    default void onProgress(long bytesTransferred) {}

    /** The transfer finished; {@code result} says how many bytes moved, how, and how long it took. */
    default void onComplete(TransferResult result) {}

    /**
     * The transfer failed after it started, was cancelled, or was closed before it was done; the
     * same exception is then thrown to the caller of {@code copy} or {@code advance()} (for an
     * {@code Error}, the {@code Error} itself is). {@link TransferException#bytesTransferred()} says
     * how far it got.
     */
    default void onFailure(TransferException failure) {}
}
