package io.zerocopy;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SelectionKey;

/**
 * One transfer that the caller drives: each {@link #advance()} moves what the channels take now
 * and returns, so a selector loop can serve thousands of transfers on one thread. Get one from
 * {@link Transfers#open(FileRegion, java.nio.channels.WritableByteChannel)} or
 * {@link Transfers#open(java.nio.file.Path, java.nio.channels.WritableByteChannel)}; the strategy is chosen, and the listener hears
 * {@code onStart}, when it is opened.
 *
 * <pre>{@code
 * Transfer body = Transfers.open(FileRegion.of(file, 0, file.size()), socketChannel); // non-blocking socket
 * // in the loop, on OP_WRITE readiness:
 * body.advance();
 * // interestOps() is 0 while a rate limit pauses it: advance again after delayNanos()
 * if (body.isDone()) { key.interestOps(SelectionKey.OP_READ); body.close(); }
 * else { key.interestOps(body.interestOps()); }
 * }</pre>
 *
 * <p><b>What a call does.</b> On a non-blocking target (and a file or non-blocking source)
 * {@code advance()} runs steps until the target accepts nothing more, the transfer is done, or it
 * fails; it never waits, sleeps or selects. On a blocking channel it makes at most one step, which
 * may block in that channel like any write (the native path's step into a blocking socket waits
 * for room at most 100 ms, and may then return 0 with {@code interestOps()} {@code OP_WRITE});
 * a path that names a FIFO is such a channel, whose read waits for its writer (give it a thread of
 * its own). Choice of strategy, the per-call cap, truncation detection
 * ({@link TruncatedSourceException} when a file shrank), counts and listener events are exactly
 * those of the blocking {@code copy} verbs, which are built on this type; a body read whole
 * when the transfer opens (a small file to a peer on this host, a region's body that goes with its
 * prefix) is sent as it was then, even if the file shrinks before the first {@code advance()}. The
 * stall timeout does not apply: the loop that calls {@code advance()} owns time.
 *
 * <p><b>Ownership.</b> The caller's channels are never closed, flushed, registered or switched
 * between blocking modes. {@link #close()} releases what the library acquired (a buffer, a
 * mapping, a file it opened from a {@code Path}); that is also done as soon as the transfer
 * completes or fails, so close is only needed to abandon a transfer early, and is harmless always.
 * A transfer dropped unclosed gives what it held back once the garbage collector finds it
 * unreachable, which may be much later: close it.
 *
 * <p><b>Failures.</b> Any failure after opening is thrown by {@code advance()} as a
 * {@link TransferException} with the count, after the listener's {@code onFailure}; the transfer
 * is then over and a further {@code advance()} throws {@code IllegalStateException}. An
 * {@code Error} reaches {@code onFailure} (wrapped in a {@code TransferException}) and is then
 * rethrown as itself. An exception the listener throws reaches the caller of {@code advance()} as
 * it is and ends the transfer too, without {@code onFailure}: what the library acquired is
 * released, and a further {@code advance()} throws {@code IllegalStateException}; one thrown from
 * {@code onComplete} comes after every byte moved, and the transfer stays done (a further
 * {@code advance()} returns 0).
 *
 * <p><b>Threads.</b> Drive one transfer from one thread at a time (a selector loop does); which
 * thread may change from call to call. An {@code advance()} while another thread is in one throws
 * {@code IllegalStateException} and changes nothing. {@link #close()} may come from any thread at
 * any time: while another thread is in {@code advance()}, it returns at once, and that call makes
 * no further step and ends the transfer as it returns, so nothing a step is using (a mapping, a
 * buffer) is released under it. To end a step blocked in a blocking channel, close the channel.
 * A transfer closed by another thread or by its listener tells the loop nothing: {@code isDone()}
 * stays false, {@code interestOps()} is 0 and the next {@code advance()} throws
 * {@code IllegalStateException}, so whoever closes it tells the loop.
 * The other methods read what the last {@code advance()} left, for the thread that drives.
 */
public interface Transfer extends Closeable {

    /**
     * Moves what can move now.
     *
     * @return the bytes moved by this call; 0 when the channel would block (wait for
     *     {@link #interestOps()}), when paced by a rate limit (wait {@link #delayNanos()}), or when
     *     already done
     * @throws TransferException if the transfer failed; it is then over
     * @throws IllegalStateException if it had already failed or was closed, or another thread is in
     *     {@code advance()} now
     */
    long advance() throws IOException;

    /** Whether every byte has moved (for a source read to its end: the end was reached). */
    boolean isDone();

    /** The bytes moved so far, prefix bytes included. */
    long bytesTransferred();

    /** The bytes this transfer will move, prefix bytes included, or {@code -1} when the source is read to its end. */
    long count();

    /**
     * What to wait for before the next {@link #advance()}: {@link SelectionKey#OP_WRITE} when the
     * target was full, {@link SelectionKey#OP_READ} when the source had nothing to give, 0 when the
     * transfer is over or paced by a rate limit. Meaningful after an {@code advance()} that
     * returned 0; before the first one it is {@code OP_WRITE}, or 0 for a transfer of nothing
     * (an empty file or region), which is done when opened.
     */
    int interestOps();

    /**
     * With a rate limit, how long to wait before the next {@link #advance()} can move a byte; 0
     * when not paced.
     */
    long delayNanos();

    /**
     * What the finished transfer did.
     *
     * @throws IllegalStateException if it is not done
     */
    TransferResult result();

    /**
     * Releases what the library opened for this transfer; never the caller's channels. Closing a
     * transfer that is not done abandons it: the listener hears {@code onFailure} with a
     * {@link TransferException} that says so. Closing again does nothing. From any thread: while
     * another is in {@link #advance()}, that call ends the transfer as it returns.
     */
    @Override
    void close();
}
