package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one strategy step by step until the request is done: the only loop in the library.
 *
 * <p>Per step it asks for at most {@link #MAX_STEP_BYTES}, never more than the platform's per-call
 * cap (and, with a rate limit, a tenth of a second's worth), counts what moved, reports progress
 * and paces. When a step moves nothing it first checks whether a file source shrank, then waits:
 * with a selector on a non-blocking channel (never spinning), otherwise with a short, growing
 * pause; and gives up after the stall timeout.
 * Every {@code IOException} leaves as a {@link TransferException} carrying the count.
 *
 * <p>One engine runs one transfer on the calling thread and is then dropped.
 */
final class Engine {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    /**
     * Most bytes one step is asked for, below the platform's per-call cap: 64 MiB. Progress
     * callbacks, the interrupt check and the stall clock all run between steps, and one blocking
     * {@code sendfile} of 2 GiB would leave a listener silent for a second or more; at 64 MiB they
     * run every 20-40 ms at loopback speeds, for 16 extra system calls per GiB (the mmap window has
     * the same default size for the same reason).
     */
    static final long MAX_STEP_BYTES = 64L * 1024 * 1024;

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

    /**
     * Zero-progress steps in a row after which a selector that reports readiness is no longer
     * trusted alone and the engine also pauses (guards against a channel that is "ready" but
     * keeps accepting nothing).
     */
    private static final int SELECT_TRUST = 3;

    private final TransferRequest request;
    private final Selection.Choice choice;
    private final TransferListener listener;
    private final long stallNanos;
    private final Duration stallTimeout;
    private final long rateLimit;
    private final long maxStep;

    private Selector selector;
    private SelectionKey sourceKey;
    private SelectionKey targetKey;
    private long moved;
    /** One byte for {@link #checkSourceNotExhausted()}, made on the first stall only. */
    private ByteBuffer probe;

    Engine(TransferRequest request, Selection.Choice choice, TransferOptions options) {
        this.request = request;
        this.choice = choice;
        this.listener = options.listener();
        this.stallTimeout = options.stallTimeout();
        this.stallNanos = saturatedNanos(stallTimeout);
        this.rateLimit = options.rateLimit();
        long cap = Math.min(MAX_STEP_BYTES, request.platform().maxBytesPerCall());
        this.maxStep = rateLimit == 0 ? cap : Math.max(1, Math.min(cap, rateLimit / 10));
    }

    /** Runs the transfer; returns the bytes moved. */
    long run() throws IOException {
        long count = request.count();
        listener.onStart(choice.strategy.name(), count);
        long started = System.nanoTime();
        try {
            try (TransferStep step = choice.strategy.open(request)) {
                loop(step, count, started);
            } catch (TransferException e) {
                throw e;
            } catch (IOException e) {
                // From open() or close(): the loop itself wraps what it sees.
                throw failure(e);
            } catch (InternalError e) {
                throw faultOnShrunkFile(e);
            } finally {
                closeSelector();
            }
        } catch (TransferException e) {
            listener.onFailure(e);
            throw e;
        }
        TransferResult result = new TransferResult(moved, choice.strategy.name(), choice.reason,
                Duration.ofNanos(System.nanoTime() - started));
        listener.onComplete(result);
        return moved;
    }

    private void loop(TransferStep step, long count, long started) throws IOException {
        long lastProgress = System.nanoTime();
        int idle = 0;
        while (count < 0 || moved < count) {
            if (Thread.currentThread().isInterrupted()) {
                throw interrupted();
            }
            long ask = count < 0 ? maxStep : Math.min(maxStep, count - moved);
            long n;
            try {
                n = step.move(moved, ask);
            } catch (IOException e) {
                throw failure(e);
            }
            if (n > 0) {
                if (n > ask) {
                    throw new IllegalStateException(choice.strategy.name() + " moved " + n
                            + " bytes when asked for at most " + ask);
                }
                moved += n;
                idle = 0;
                listener.onProgress(moved);
                pace(started);
                lastProgress = System.nanoTime();
            } else if (n < 0) {
                if (count >= 0) {
                    throw endedEarly();
                }
                return;
            } else {
                idle++;
                if (request.sourceKind() == ChannelKind.FILE) {
                    checkNotTruncated();
                    if (!request.targetNonBlocking() || idle > SELECT_TRUST) {
                        // Nothing but the source can be holding up a blocking target.
                        checkSourceNotExhausted();
                    }
                }
                long waited = System.nanoTime() - lastProgress;
                if (waited >= stallNanos) {
                    throw new TransferTimeoutException(moved, stallTimeout);
                }
                await(step.stalledOn(), stallNanos - waited, idle);
            }
        }
    }

    /** Waits until the side the step stalled on may make progress, for at most {@code nanos}. */
    private void await(TransferStep.Side side, long nanos, int idle) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw interrupted(); // which may also have closed a channel
        }
        if (!request.source().isOpen() || !request.target().isOpen()) {
            // Another thread closed an end (an idle handler, a shutdown): stop now, with the count.
            throw new AsynchronousCloseException();
        }
        Channel channel = side == TransferStep.Side.SOURCE ? request.source() : request.target();
        boolean selectable = channel instanceof SelectableChannel && !((SelectableChannel) channel).isBlocking();
        if (selectable) {
            select((SelectableChannel) channel, side, nanos);
        }
        if (!selectable || idle > SELECT_TRUST) {
            int shift = Math.min(idle - 1, 20);
            long pause = Math.min(Math.min(MAX_BACKOFF_NANOS, MIN_BACKOFF_NANOS << shift), nanos);
            LockSupport.parkNanos(pause);
        }
    }

    private void select(SelectableChannel channel, TransferStep.Side side, long nanos) throws IOException {
        if (selector == null) {
            selector = channel.provider().openSelector();
        }
        int ops = side == TransferStep.Side.SOURCE ? SelectionKey.OP_READ : SelectionKey.OP_WRITE;
        try {
            if (sourceKey != null && !sourceKey.isValid() || targetKey != null && !targetKey.isValid()) {
                throw new CancelledKeyException();
            }
            SelectionKey key = side == TransferStep.Side.SOURCE ? sourceKey : targetKey;
            if (key == null) {
                key = channel.register(selector, ops);
                if (side == TransferStep.Side.SOURCE) {
                    sourceKey = key;
                } else {
                    targetKey = key;
                }
            }
            key.interestOps(ops);
            SelectionKey other = side == TransferStep.Side.SOURCE ? targetKey : sourceKey;
            if (other != null && other != key) {
                other.interestOps(0);
            }
        } catch (CancelledKeyException e) {
            // Only closing a channel cancels our keys: another thread closed one of the two ends.
            AsynchronousCloseException closed = new AsynchronousCloseException();
            closed.initCause(e);
            throw closed;
        }
        long millis = Math.max(1, Math.min(MAX_SELECT_MILLIS, TimeUnit.NANOSECONDS.toMillis(nanos)));
        selector.select(millis);
        selector.selectedKeys().clear();
    }

    /** Rate limiting: sleeps until the bytes moved so far are within budget; interrupts end it. */
    private void pace(long started) throws IOException {
        if (rateLimit == 0) {
            return;
        }
        long due = started + (long) (moved * (1e9 / rateLimit));
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                throw interrupted();
            }
        }
    }

    private void checkNotTruncated() throws TruncatedSourceException {
        TruncatedSourceException truncation = truncation(null);
        if (truncation != null) {
            throw truncation;
        }
    }

    /**
     * A file source whose size has not shrunk can still end before it: procfs and sysfs files
     * report a size (sysfs: 4096) that says nothing of their content. {@code transferTo} then
     * returns 0 for ever; one positional read tells that apart from a slow target.
     */
    private void checkSourceNotExhausted() throws IOException {
        if (probe == null) {
            probe = ByteBuffer.allocate(1);
        }
        probe.clear();
        if (request.sourceFile().read(probe, request.position() + moved) < 0) {
            throw endedEarly();
        }
    }

    /** The source ended before the slice did: a file that shrank, or one whose size overstates its content. */
    private TransferException endedEarly() {
        TruncatedSourceException truncation = truncation(null);
        if (truncation != null) {
            return truncation;
        }
        String size;
        try {
            size = Long.toString(FileChannels.size(request.sourceFile()));
        } catch (IOException e) {
            size = "unknown";
        }
        return new TransferException("the source file ended after " + moved + " of " + request.count()
                + " bytes while its size still reads " + size + " (a procfs or sysfs file?)", moved, null);
    }

    /** Wraps a failure with the count; a file source found shorter than promised makes it a truncation. */
    private TransferException failure(IOException e) {
        if (e instanceof TransferException) {
            return (TransferException) e;
        }
        TruncatedSourceException truncation = truncation(e);
        return truncation != null ? truncation
                : new TransferException(choice.strategy.name() + " failed after " + moved + " bytes: " + e, moved, e);
    }

    /**
     * An {@code InternalError} from touching a page of a mapped source that the file no longer
     * covers. HotSpot reports such a fault in compiled code late ("a fault occurred in a recent
     * unsafe memory access operation"): it can surface anywhere in the loop after the step that
     * touched the page, or while the step unmaps, not only inside the step's own write. If the source
     * file is now shorter than the slice, that is a truncation; any other {@code InternalError} is
     * rethrown as it is.
     */
    private TransferException faultOnShrunkFile(InternalError e) {
        TruncatedSourceException truncation = truncation(e);
        if (truncation == null) {
            throw e;
        }
        return truncation;
    }

    /**
     * A {@link TruncatedSourceException} if the source is a file now shorter than the end of the
     * slice, else null. Reading the size neither closes the channel on a pending interrupt nor
     * hides the original failure: a failure to read it is added to {@code cause} as suppressed.
     */
    private TruncatedSourceException truncation(Throwable cause) {
        if (request.sourceKind() != ChannelKind.FILE || !request.source().isOpen()) {
            return null;
        }
        long end = request.position() + request.count();
        try {
            long size = FileChannels.size(request.sourceFile());
            return size < end ? new TruncatedSourceException(moved, end, size, cause) : null;
        } catch (IOException sizeFailure) {
            if (cause != null) {
                cause.addSuppressed(sizeFailure);
            }
            return null;
        }
    }

    private TransferException interrupted() {
        if (!request.source().isOpen() || !request.target().isOpen()) {
            // A JDK channel saw the interrupt inside a call and closed itself, yet the call returned
            // (transferTo to or from a channel that is not the JDK's own keeps its count and drops
            // the exception): report it the way the JDK would have.
            return new TransferException("interrupted after " + moved + " bytes; the interrupt closed a channel",
                    moved, new ClosedByInterruptException());
        }
        // The channels are still open: the interrupt arrived between calls into them. The flag stays
        // set so that the caller's own code sees it too.
        InterruptedIOException cause = new InterruptedIOException("interrupted after " + moved + " bytes");
        cause.bytesTransferred = (int) Math.min(moved, Integer.MAX_VALUE);
        return new TransferException("interrupted after " + moved + " bytes", moved, cause);
    }

    private void closeSelector() {
        if (selector != null) {
            // Closing the selector deregisters the caller's channels from it before copy returns.
            // It is the engine's own; a failure to close it says nothing about the transfer and must
            // not replace the transfer's own outcome.
            try {
                selector.close();
            } catch (IOException e) {
                log.debug("could not close the transfer's selector", e);
            }
            selector = null;
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
