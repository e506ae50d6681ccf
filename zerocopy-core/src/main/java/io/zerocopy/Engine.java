package io.zerocopy;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocking verbs' loop: advances one {@link RealTransfer} until it is done, and waits whenever
 * it moves nothing: with a selector on a non-blocking channel (never spinning), otherwise with a
 * short, growing pause; it gives up after the stall timeout and stops at the next step when
 * cancelled. Every failure reaches the caller through the transfer, as a
 * {@link TransferException} with the count, after the listener heard of it.
 *
 * <p>One engine runs one transfer on the calling thread and is then dropped; a blocking verb makes
 * one only when its transfer has to wait.
 */
final class Engine {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    /**
     * Longest single wait in a selector: 100 ms. Closing a channel from another thread cancels its
     * key without waking the selector, so the engine looks up every 100 ms to notice; a stalled
     * transfer costs ten wake-ups a second for it.
     */
    private static final long MAX_SELECT_MILLIS = 100;

    /** First pause after a step that moved nothing on a channel that cannot be selected. */
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /**
     * Longest pause between retries on a channel that cannot be selected: 10 ms keeps the latency
     * after a stall short while costing a stalled transfer at most 100 wake-ups a second.
     */
    private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final RealTransfer transfer;
    private final TransferFacts facts;
    private final TransferOptions options;

    private volatile Selector selector;
    private SelectionKey sourceKey;
    private SelectionKey targetKey;

    Engine(RealTransfer transfer, TransferOptions options) {
        this.transfer = transfer;
        this.facts = transfer.facts();
        this.options = options;
    }

    /** Runs the transfer to its end; returns the bytes moved. */
    long run() throws IOException {
        return run(transfer, options, this);
    }

    /** As {@link #run()}, with an engine made only if the transfer has to wait: most small ones never do. */
    static long run(RealTransfer transfer, TransferOptions options) throws IOException {
        return run(transfer, options, null);
    }

    private static long run(RealTransfer transfer, TransferOptions options, Engine engine) throws IOException {
        try {
            Stall stall = null; // the transfer's, once it has stalled: it says whether a stall is on
            while (!transfer.isDone()) {
                // A stall lasts until a step that finds nothing to move, not until this thread gets
                // round to checking: a pause of its own (GC, a busy machine) must not time it out.
                // A stall that begins in this advance has lasted nothing yet: no clock for it.
                boolean stalledBefore = stall != null && stall.idleSteps() > 0;
                long lookedAt = stalledBefore ? System.nanoTime() : 0;
                long n = transfer.advance();
                long delay = transfer.delayNanos();
                if (delay > 0) {
                    LockSupport.parkNanos(transfer, delay); // an interrupt ends it; the next advance reports it
                } else if (n == 0 && !transfer.isDone() && transfer.stall().idleSteps() > 0) {
                    stall = transfer.stall();
                    // the last step moved nothing (not a pause of the rate limit that just ended)
                    long stallNanos = options.stallTimeoutNanos();
                    long waited = stalledBefore ? Math.max(0, stall.stalledFor(lookedAt)) : 0;
                    if (waited >= stallNanos) {
                        throw transfer.fail(
                                transfer.failures().timedOut(transfer.bytesTransferred(), options.stallTimeout()));
                    }
                    if (engine == null) {
                        engine = new Engine(transfer, options);
                    }
                    try {
                        engine.await(transfer.interestOps(), stallNanos - waited, stall.idleSteps());
                    } catch (IOException | RuntimeException e) {
                        throw transfer.fail(e);
                    }
                }
            }
            return transfer.bytesTransferred();
        } catch (InternalError e) {
            // The late mapping fault of RealTransfer.advance, delivered in this loop between two advances.
            throw transfer.fail(e);
        } finally {
            if (engine != null) {
                engine.closeSelector();
            }
            transfer.abandon(); // only if something escaped the transfer (a listener's exception)
        }
    }

    /**
     * Stops the transfer at its next step ({@link RealTransfer#cancel}), and closes the selector it
     * may wait in, which wakes it and lets go of the caller's channels before this returns. False
     * where the transfer had already ended. Safe from any thread.
     */
    boolean cancel() {
        if (!transfer.cancel()) {
            return false;
        }
        closeSelector();
        return true;
    }

    /** Whether a {@link #cancel} reached the transfer before it ended. */
    boolean isCancelled() {
        return transfer.isCancelled();
    }

    /** Waits until the end the transfer waits on ({@code ops}: read for the source, write for the target) may make progress, for at most {@code nanos}. */
    private void await(int ops, long nanos, int idle) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            return; // the next advance reports it (the interrupt may also have closed a channel)
        }
        if (!facts.sourceIsOpen() || !facts.target().isOpen()) {
            // Another thread closed an end (an idle handler, a shutdown): stop now, with the count.
            throw new AsynchronousCloseException();
        }
        boolean source = ops == SelectionKey.OP_READ;
        Channel channel = source ? facts.source() : facts.target();
        boolean selectable = source ? facts.sourceNonBlocking() : facts.targetNonBlocking();
        if (selectable) {
            select((SelectableChannel) channel, source, nanos);
        }
        if (!selectable || idle > Stall.SELECT_TRUST) {
            int shift = Math.min(idle - 1, 20);
            long pause = Math.min(Math.min(MAX_BACKOFF_NANOS, MIN_BACKOFF_NANOS << shift), nanos);
            LockSupport.parkNanos(this, pause);
        }
    }

    private void select(SelectableChannel channel, boolean source, long nanos) throws IOException {
        Selector s = selector; // cancel() may close it, and closing empties the field, from another thread
        if (s == null) {
            s = channel.provider().openSelector();
            selector = s;
            if (transfer.isCancelled()) {
                return; // cancel() may have looked before the selector existed
            }
        }
        int ops = source ? SelectionKey.OP_READ : SelectionKey.OP_WRITE;
        try {
            if (sourceKey != null && !sourceKey.isValid() || targetKey != null && !targetKey.isValid()) {
                throw new CancelledKeyException();
            }
            SelectionKey key = source ? sourceKey : targetKey;
            if (key == null) {
                key = channel.register(s, ops);
                if (source) {
                    sourceKey = key;
                } else {
                    targetKey = key;
                }
            }
            key.interestOps(ops);
            SelectionKey other = source ? targetKey : sourceKey;
            if (other != null && other != key) {
                other.interestOps(0);
            }
            long millis = Math.max(1, Math.min(MAX_SELECT_MILLIS, TimeUnit.NANOSECONDS.toMillis(nanos)));
            s.select(millis);
            s.selectedKeys().clear();
        } catch (CancelledKeyException | ClosedSelectorException e) {
            if (transfer.isCancelled()) {
                return; // cancel() closed the selector: the next advance ends the transfer
            }
            // Only closing a channel cancels our keys: another thread closed one of the two ends.
            AsynchronousCloseException closed = new AsynchronousCloseException();
            closed.initCause(e);
            throw closed;
        }
    }

    private void closeSelector() {
        Selector s = selector;
        if (s != null) {
            // Closing the selector deregisters the caller's channels from it before copy returns.
            // It is the engine's own; a failure to close it says nothing about the transfer and must
            // not replace the transfer's own outcome.
            try {
                s.close();
            } catch (IOException e) {
                log.debug("could not close the transfer's selector", e);
            }
            selector = null;
        }
    }
}
