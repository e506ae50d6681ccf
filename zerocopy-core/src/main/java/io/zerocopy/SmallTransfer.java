package io.zerocopy;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A small send ({@link SmallSend}) as the {@link Transfer} a caller drives: the body read already
 * into a pooled buffer, gathered after the prefix by {@link PrefixWrite}, which moves what a short
 * write leaves to the heap and gives the pooled buffer back. Counts, {@code interestOps}, the
 * interrupt, the failures and their words are the transfer's it stands in for; its facts and its
 * choice ({@link TransferResult#reason()}) are worked out only when a failure or the caller asks
 * for them. No listener, rate limit or recording watches it ({@link RealTransfer#unobserved}), so
 * it tells no one anything.
 */
final class SmallTransfer implements Transfer {
    private enum State {
        RUNNING,
        DONE,
        FAILED,
        CLOSED
    }

    private final SmallSend sender;
    private final NativeFile file;
    private final long position;
    private final PrefixWrite write;
    private final SocketChannel target;
    /** The path the file was opened from, which makes the file this transfer's to close; else null. */
    private final Path path;

    private final long count;
    /** Whether one {@link #advance()} may write more than once: the target does not block. */
    private final boolean mayLoop;

    private final long started = System.nanoTime();

    private State state = State.RUNNING;
    private long moved;
    private int interestOps = SelectionKey.OP_WRITE;
    private long elapsedNanos;
    private TransferFailures failures;
    private TransferException failure;
    private TransferResult result;

    /**
     * @param write the prefix and the body, read whole already, owning the pool's buffer
     * @param path where {@code file} was opened from, to close it with the transfer; null for a caller's file
     */
    SmallTransfer(
            SmallSend sender, NativeFile file, long position, PrefixWrite write, SocketChannel target, Path path) {
        this.sender = sender;
        this.file = file;
        this.position = position;
        this.write = write;
        this.target = target;
        this.path = path;
        this.count = write.size();
        this.mayLoop = !target.isBlocking();
    }

    @Override
    public long advance() throws IOException {
        if (state == State.DONE) {
            return 0;
        }
        if (state != State.RUNNING) {
            throw RealTransfer.over(state == State.FAILED, moved, failure);
        }
        long before = moved;
        try {
            do {
                if (Thread.currentThread().isInterrupted()) {
                    throw failures().interrupted(moved);
                }
                long n = write.write(target);
                if (n == 0) {
                    break; // the target is full
                }
                moved += n;
            } while (mayLoop && moved < count);
        } catch (IOException | RuntimeException | Error e) {
            throw fail(e);
        }
        if (moved == count) {
            complete();
        }
        return moved - before;
    }

    private void complete() {
        release(null);
        state = State.DONE;
        interestOps = 0;
        elapsedNanos = System.nanoTime() - started;
    }

    private TransferException fail(Throwable cause) {
        TransferException e = failures().of(cause, moved);
        state = State.FAILED;
        interestOps = 0;
        failure = e;
        release(e);
        if (cause instanceof Error && !(e instanceof TruncatedSourceException)) {
            throw (Error) cause;
        }
        return e;
    }

    private TransferFailures failures() {
        if (failures == null) {
            failures = new TransferFailures(facts(), NativeStrategy.NAME, count, path);
        }
        return failures;
    }

    private TransferFacts facts() {
        return sender.facts(file, position, count - write.prefixBytes(), write.prefixBytes(), target);
    }

    /** Gives the pooled buffer back and closes a file opened from a path. */
    private void release(TransferException failure) {
        write.release();
        if (path != null) {
            RealTransfer.closeQuietly(file, failure);
        }
    }

    @Override
    public boolean isDone() {
        return state == State.DONE;
    }

    @Override
    public long bytesTransferred() {
        return moved;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public int interestOps() {
        return interestOps;
    }

    @Override
    public long delayNanos() {
        return 0;
    }

    @Override
    public TransferResult result() {
        if (state != State.DONE) {
            throw RealTransfer.notDone(moved, count);
        }
        if (result == null) {
            result = new TransferResult(moved, sender.choice(facts()), Duration.ofNanos(elapsedNanos));
        }
        return result;
    }

    @Override
    public void close() {
        if (state == State.RUNNING) {
            state = State.CLOSED;
            interestOps = 0;
            failure = RealTransfer.abandoned(moved, count);
            release(failure);
        }
    }

    @Override
    public String toString() {
        return "Transfer{" + (count - write.prefixBytes()) + " bytes of " + file + " from " + position + " after a "
                + write + " via " + NativeStrategy.NAME + ", " + moved + " of " + count + " bytes, " + state + "}";
    }
}
