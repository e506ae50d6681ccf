package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one transfer state machine of the library: runs a strategy's steps (after a header prefix,
 * if any), counts, reports to the listener, detects a source that ended or shrank, paces a rate
 * limit, and turns every failure into a {@link TransferException} with the count. It never waits:
 * the blocking verbs wait between its calls in {@link Engine}, an event loop in its selector.
 */
final class RealTransfer implements Transfer {
    private static final Logger log = LoggerFactory.getLogger(Transfers.class);

    /**
     * Most bytes one step is asked for, below the platform's per-call cap: 64 MiB. Progress
     * callbacks, the interrupt check and the stall clock run between steps, and one blocking
     * {@code sendfile} of 2 GiB would leave them silent for a second or more; at 64 MiB they run
     * every few tens of milliseconds, for 16 extra system calls per GiB.
     */
    static final long MAX_STEP_BYTES = 64L * 1024 * 1024;

    /**
     * Zero-progress calls in a row after which a non-blocking target's "full" is no longer taken at
     * its word and the source is checked for an early end (a sysfs file whose size overstates its
     * content makes {@code transferTo} return 0 for ever, which looks like a full socket).
     */
    static final int SELECT_TRUST = 3;

    private enum State { RUNNING, DONE, FAILED, CLOSED }

    private final TransferRequest request;
    private final Selection.Choice choice;
    private final TransferListener listener;
    private final long rateLimit;
    private final long maxStep;
    private final HeaderPrefix prefix;
    private final long prefixBytes;
    private final long total;
    private final boolean mayLoop;
    private final Closeable owned;
    private final TransferFailures failures;

    private State state = State.RUNNING;
    private TransferStep step;
    private long moved;
    private long started;
    private int idle;
    private int interestOps = SelectionKey.OP_WRITE;
    private long pausedUntil;
    private ByteBuffer probe;
    private TransferResult result;
    private TransferException failure;

    private RealTransfer(TransferRequest request, Selection.Choice choice, TransferOptions options,
            HeaderPrefix prefix, Closeable owned) {
        this.request = request;
        this.choice = choice;
        this.listener = options.listener();
        this.rateLimit = options.rateLimit();
        long cap = Math.min(MAX_STEP_BYTES, request.platform().maxBytesPerCall());
        this.maxStep = rateLimit == 0 ? cap : Math.max(1, Math.min(cap, rateLimit / 10));
        this.prefix = prefix;
        this.prefixBytes = prefix == null ? 0 : prefix.size();
        this.total = request.count() < 0 ? -1 : prefixBytes + request.count();
        // A file never blocks a step, whether the JDK's (FILE) or another provider's read through a slice view.
        this.mayLoop = nonBlocking(request.target()) && (request.sourceKind() == ChannelKind.FILE
                || request.source() instanceof FileSliceChannel || nonBlocking(request.source()));
        this.owned = owned;
        this.failures = new TransferFailures(request, choice.strategy.name(), total);
    }

    /**
     * Starts a transfer: the listener hears {@code onStart}; a transfer of 0 bytes is done at once.
     *
     * @param owned what the library opened for this transfer (a file from a {@code Path}), closed
     *     with it; or null
     */
    static RealTransfer start(TransferRequest request, Selection.Choice choice, TransferOptions options,
            HeaderPrefix prefix, Closeable owned) throws TransferException {
        RealTransfer t = new RealTransfer(request, choice, options, prefix, owned);
        log.debug("{}{} via {}: {}", request, prefix == null ? "" : ", after a " + prefix, choice.strategy.name(),
                choice.reason);
        t.listener.onStart(choice.strategy.name(), t.total);
        t.started = System.nanoTime();
        if (t.total == 0) {
            t.complete();
        } else if (request.count() != 0) {
            // at once, so that what the choice counted on (a buffer from the budget) is taken by the
            // thread that chose it, before other transfers choose
            try {
                t.step = choice.strategy.open(request);
            } catch (IOException | RuntimeException | Error e) {
                throw t.fail(e);
            }
        }
        return t;
    }

    @Override
    public long advance() throws IOException {
        if (state == State.DONE) {
            return 0;
        }
        if (state != State.RUNNING) {
            throw new IllegalStateException("transfer is " + (state == State.FAILED ? "failed" : "closed")
                    + " after " + moved + " bytes", failure);
        }
        long before = moved;
        try {
            run();
        } catch (InternalError e) {
            // A fault on a mapped page the file lost can surface after the step that touched it,
            // in the listener's code say.
            throw fail(e);
        }
        return moved - before;
    }

    /** Steps until the transfer is over, the channel would block, or (on a blocking channel) after one step. */
    private void run() throws TransferException {
        while (state == State.RUNNING) {
            if (rateLimit > 0 && aheadOfRate()) {
                interestOps = 0;
                break;
            }
            long n;
            try {
                if (Thread.currentThread().isInterrupted()) {
                    throw failures.interrupted(moved);
                }
                n = step();
            } catch (IOException | RuntimeException | Error e) {
                throw fail(e);
            }
            if (n > 0) {
                moved += n;
                idle = 0;
                interestOps = SelectionKey.OP_WRITE;
                listener.onProgress(moved);
                if (moved == total) {
                    complete();
                } else if (!mayLoop) {
                    break;
                }
            } else if (n < 0) {
                if (total >= 0) {
                    throw fail(failures.endedEarly(null, moved));
                }
                complete();
            } else {
                idle++;
                try {
                    checkZeroProgress();
                } catch (IOException | RuntimeException e) {
                    throw fail(e);
                }
                break;
            }
        }
    }

    /** One step: the prefix while it lasts, then the strategy's. */
    private long step() throws IOException {
        if (moved < prefixBytes) {
            interestOps = SelectionKey.OP_WRITE;
            return prefix.write(request.target());
        }
        if (step == null) {
            step = choice.strategy.open(request);
        }
        long done = moved - prefixBytes;
        long ask = total < 0 ? maxStep : Math.min(maxStep, total - moved);
        long n = step.move(done, ask);
        if (n > ask) {
            throw new IllegalStateException(choice.strategy.name() + " moved " + n + " bytes when asked for at most " + ask);
        }
        if (n == 0) {
            interestOps = step.stalledOn() == TransferStep.Side.SOURCE ? SelectionKey.OP_READ : SelectionKey.OP_WRITE;
        }
        return n;
    }

    /**
     * After a step that moved nothing: a file source that shrank is a truncation; a file source that
     * ended while its size still reads the same (procfs, sysfs) is found by reading one byte, at once
     * when only the source can be holding up (a blocking target), else after {@link #SELECT_TRUST}
     * such calls in a row.
     */
    private void checkZeroProgress() throws IOException {
        if (request.sourceKind() != ChannelKind.FILE || moved < prefixBytes) {
            return;
        }
        TruncatedSourceException truncation = failures.truncation(null, moved);
        if (truncation != null) {
            throw truncation;
        }
        if (!request.targetNonBlocking() || idle > SELECT_TRUST) {
            if (probe == null) {
                probe = ByteBuffer.allocate(1);
            }
            probe.clear();
            if (!request.sourceDirectIo()
                    && request.sourceFile().read(probe, request.position() + moved - prefixBytes) < 0) {
                throw failures.endedEarly(null, moved);
            }
        }
    }

    /** Whether the bytes moved so far are ahead of the rate limit's schedule; sets {@link #pausedUntil}. */
    private boolean aheadOfRate() {
        long due = started + (long) (moved * (1e9 / rateLimit));
        pausedUntil = due;
        return due - System.nanoTime() > 0;
    }

    private void complete() throws TransferException {
        try {
            releaseQuietly(null);
        } catch (InternalError e) {
            // a late fault of the last mapped window: the file was cut under it after all
            throw fail(e);
        }
        state = State.DONE;
        interestOps = 0;
        result = new TransferResult(moved, choice.strategy.name(), choice.reason,
                Duration.ofNanos(System.nanoTime() - started));
        listener.onComplete(result);
    }

    /**
     * Ends the transfer with a failure: releases what it holds, tells the listener, and returns the
     * {@link TransferException} to throw. An {@code Error} is told to the listener wrapped and then
     * rethrown as itself (a mapped page lost to truncation, which surfaces as an
     * {@code InternalError}, is a truncation).
     */
    TransferException fail(Throwable cause) {
        if (state != State.RUNNING) {
            // Already over (a late mapping fault after the end, say): there is nothing left to tell.
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            return failure != null ? failure : failures.of(cause, moved);
        }
        TransferException e = failures.of(cause, moved);
        state = State.FAILED;
        interestOps = 0;
        failure = e;
        releaseQuietly(e);
        listener.onFailure(e);
        if (cause instanceof Error && !(e instanceof TruncatedSourceException)) {
            throw (Error) cause;
        }
        return e;
    }

    /**
     * Closes the step and what the library opened; a failure to do so is added to {@code failure},
     * or logged (an {@code InternalError} without a failure is thrown, see {@link #complete()}).
     */
    private void releaseQuietly(TransferException failure) {
        TransferStep s = step;
        step = null;
        for (Closeable c : new Closeable[] {s, owned}) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (IOException | RuntimeException | InternalError e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else if (e instanceof InternalError) {
                    throw (InternalError) e; // a late mapping fault while unmapping: complete() reports it
                } else {
                    log.debug("could not release {} after the transfer", c, e);
                }
            }
        }
    }

    private static boolean nonBlocking(Channel channel) {
        return channel instanceof SelectableChannel && !((SelectableChannel) channel).isBlocking();
    }

    TransferRequest request() {
        return request;
    }

    /** Which end the last zero-progress step waited on. */
    TransferStep.Side stalledOn() {
        return interestOps == SelectionKey.OP_READ ? TransferStep.Side.SOURCE : TransferStep.Side.TARGET;
    }

    @Override
    public boolean isDone() {
        return state == State.DONE;
    }

    @Override
    public long transferred() {
        return moved;
    }

    @Override
    public long count() {
        return total;
    }

    @Override
    public int interestOps() {
        return interestOps;
    }

    @Override
    public long delayNanos() {
        return state != State.RUNNING || rateLimit == 0 ? 0 : Math.max(0, pausedUntil - System.nanoTime());
    }

    @Override
    public TransferResult result() {
        if (state != State.DONE) {
            throw new IllegalStateException("transfer is not done: " + moved + " of "
                    + (total < 0 ? "all" : Long.toString(total)) + " bytes moved");
        }
        return result;
    }

    /** Releases what the transfer holds without telling the listener: the blocking engine's last resort. */
    void abandon() {
        if (state == State.RUNNING) {
            state = State.CLOSED;
            interestOps = 0;
            releaseQuietly(null);
        }
    }

    @Override
    public void close() {
        if (state != State.RUNNING) {
            return;
        }
        TransferException abandoned = new TransferException("transfer closed after " + moved + " of "
                + (total < 0 ? "all" : Long.toString(total)) + " bytes, before it was done", moved, null);
        state = State.CLOSED;
        interestOps = 0;
        failure = abandoned;
        releaseQuietly(abandoned);
        listener.onFailure(abandoned);
    }

    @Override
    public String toString() {
        return "Transfer{" + request + (prefix == null ? "" : " after a " + prefix) + " via " + choice.strategy.name()
                + ", " + moved + " of " + (total < 0 ? "all" : Long.toString(total)) + " bytes, " + state + "}";
    }
}
