package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The one transfer state machine of the library: runs a strategy's steps (after a prefix write,
 * if any), counts, reports to the listener, and turns every failure into a
 * {@link TransferException} with the count. What a step that moved nothing means is {@link Stall}'s
 * to say, keeping to a rate limit {@link RatePacer}'s. It never waits: the blocking verbs wait
 * between its calls in {@link Engine}, an event loop in its selector.
 */
final class RealTransfer implements Transfer {
    private static final int CANCELLED = 1; // how a transfer ends (end): undecided (0), then one of these
    private static final int ENDED = 2;
    private static final AtomicIntegerFieldUpdater<RealTransfer> END =
            AtomicIntegerFieldUpdater.newUpdater(RealTransfer.class, "end");
    private static final AtomicReferenceFieldUpdater<RealTransfer, Thread> DRIVER =
            AtomicReferenceFieldUpdater.newUpdater(RealTransfer.class, Thread.class, "driver");

    private enum State {
        RUNNING,
        DONE,
        FAILED,
        CLOSED
    }

    private final TransferFacts facts;
    private final Choice choice;
    private final TransferListener listener;
    private final RatePacer pacer;
    private final PrefixWrite prefix;
    private final Closeable owned;
    // made on first need: a transfer that neither fails nor waits never needs them
    private TransferFailures failures;
    private Stall stall;

    private State state = State.RUNNING;
    private volatile Thread driver; // the one in advance() or close(): a close from another meanwhile is left to it
    private volatile boolean closeLater;

    private TransferStep step;
    private long moved;
    private boolean toEndOfFile;
    private boolean timed = true; // whether the result's time may be read (dropResult)
    private boolean clockStarted;
    private long started; // when the first step ran; once done, how long the transfer took

    private int interestOps = SelectionKey.OP_WRITE;
    private TransferResult result; // made when first asked for: a plain copy never does
    private TransferException failure;
    /** Decided once by whoever comes first: {@link #cancel} from any thread, or the end of its own. */
    private volatile int end;
    /** This transfer's flight recorder event while a recording wants one, else null. */
    private Object event;

    private RealTransfer(
            TransferFacts facts, Choice choice, TransferOptions options, PrefixWrite prefix, Closeable owned) {
        this.facts = facts;
        this.choice = choice;
        this.listener = options.listener();
        this.pacer = options.rateLimit() == 0 ? null : new RatePacer(options.rateLimit());
        this.prefix = prefix;
        this.owned = owned;
    }

    TransferFailures failures() {
        if (failures == null) {
            failures = new TransferFailures(facts, choice.strategy.name(), count(), OpenedFile.pathOf(owned));
        }
        return failures;
    }

    /**
     * Starts a transfer: the listener hears {@code onStart}, and the chosen strategy's step opens with what the choice
     * took for it; a transfer of 0 bytes is done at its first advance. {@code owned}: a file the library opened, or null.
     */
    static RealTransfer start(
            TransferFacts facts, Choice choice, TransferOptions options, PrefixWrite prefix, Closeable owned)
            throws TransferException {
        RealTransfer t = new RealTransfer(facts, choice, options, prefix, owned);
        t.choice.log(facts, prefix);
        try {
            t.listener.onStart(choice.strategy.name(), t.count());
        } catch (RuntimeException | Error e) {
            t.abandon(); // the listener's own: what the choice took goes back, unheard (TransferListener)
            throw e;
        }
        t.event = TransferEvents.begin();
        if (facts.count() != 0 && !choice.goesWithPrefix()) {
            try {
                t.step = choice.open(facts);
            } catch (IOException | RuntimeException | Error e) {
                throw t.fail(e);
            }
        }
        return t;
    }

    @Override
    public long advance() throws IOException {
        Thread me = Thread.currentThread();
        if (driver == me) {
            throw new IllegalStateException("advance() called from within this transfer's own listener");
        }
        if (!DRIVER.compareAndSet(this, null, me)) {
            throw new IllegalStateException(
                    "another thread is in advance() or close(): drive a transfer from one at a time");
        }
        try {
            if (state == State.DONE) {
                return 0;
            }
            if (state != State.RUNNING) {
                throw new IllegalStateException(
                        "transfer is " + (state == State.FAILED ? "failed" : "closed") + " after " + moved + " bytes",
                        failure);
            }
            long before = moved;
            run();
            return moved - before;
        } catch (InternalError e) {
            // A mapped page the file lost, faulting after its step returned (MappedStrategy converts the ones it sees).
            throw fail(e);
        } catch (RuntimeException | Error e) {
            // What a step throws is a failure already told (fail); what escapes a running transfer
            // is the listener's own: it ends the transfer, unheard by onFailure (TransferListener).
            abandon();
            throw e;
        } finally {
            driver = null;
            if (closeLater) {
                close();
            }
        }
    }

    /** Before the first advance, for a verb that reads the count and never the result: a clock only for a listener. */
    void dropResult() {
        timed = listener != TransferListener.NONE;
    }

    /** Before the first advance, for an until-end verb: a file ending before its size, unshrunk (sysfs), has ended. */
    void toEndOfFile() {
        toEndOfFile = true;
    }

    /** Steps until the transfer is over, the channel would block, or (on a blocking channel) after one step. */
    private void run() throws TransferException {
        if (timed && !clockStarted) {
            started = System.nanoTime(); // the result's time runs from the first step
            clockStarted = true;
        }
        boolean mayLoop = facts.mayLoop();
        while (state == State.RUNNING && !closeLater) { // a close from another thread: done as advance() returns
            if (end == CANCELLED) {
                throw fail(failures().cancelled(moved));
            }
            if (count() == 0) {
                complete(); // nothing to move: done at the first advance, which a cancel can still precede
                continue;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw fail(failures().interrupted(moved)); // before a pause too, which would hide it
            }
            if (pacer != null && pacer.ahead(moved)) {
                interestOps = 0;
                progressed(); // paced, not stalled
                break;
            }
            long n;
            try {
                n = step();
                if (n == 0 && stall().zeroStep(moved, moved - prefixSize())) {
                    n = -1; // the file ended while its size still reads the same
                }
            } catch (IOException | RuntimeException | Error e) {
                throw fail(e);
            }
            if (n > 0) {
                moved += n;
                progressed();
                interestOps = SelectionKey.OP_WRITE;
                listener.onProgress(moved);
                if (moved == count() && state == State.RUNNING) {
                    complete(); // unless the listener closed it
                } else if (!mayLoop) {
                    break;
                }
            } else if (n < 0) {
                TransferException early = count() < 0 ? null : failures().endedEarly(null, moved);
                if (early != null && (!toEndOfFile || early instanceof TruncatedSourceException)) {
                    throw fail(early); // short of the count, unless the verb copies to the end of an unshrunk file
                }
                complete();
            } else {
                break;
            }
        }
    }

    private long prefixSize() {
        return prefix == null ? 0 : prefix.size();
    }

    /** One step: the prefix while it lasts, then the strategy's. */
    private long step() throws IOException {
        if (moved < prefixSize()) {
            interestOps = SelectionKey.OP_WRITE;
            return prefix.write(facts.target(), facts.maxStep());
        }
        long ask = count() < 0 ? facts.maxStep() : Math.min(facts.maxStep(), count() - moved);
        long n = TransferFailures.checkedCount(choice.strategy.name(), step.move(moved - prefixSize(), ask), ask);
        if (n == 0) {
            interestOps = step.stalledOn() == TransferStep.Side.SOURCE ? SelectionKey.OP_READ : SelectionKey.OP_WRITE;
        }
        return n;
    }

    private void complete() throws TransferException {
        if (!END.compareAndSet(this, 0, ENDED)) {
            throw fail(failures().cancelled(moved)); // came while the last step was blocked: the future says so
        }
        try {
            releaseQuietly(null);
        } catch (Error e) {
            throw fail(e); // a step's or file's close: the listener hears it, as any Error
        }
        state = State.DONE;
        interestOps = 0;
        started = clockStarted ? System.nanoTime() - started : 0;
        record("completed");
        if (listener != TransferListener.NONE) {
            listener.onComplete(result());
        }
    }

    /**
     * Ends the transfer with a failure, told to the listener: the {@link TransferException} to throw. An {@code Error}
     * is told wrapped, then rethrown as itself (a mapped page lost to truncation, an {@code InternalError}, is a truncation).
     */
    TransferException fail(Throwable cause) {
        if (state != State.RUNNING) {
            // Already over (a late mapping fault after the end, say): there is nothing left to tell.
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            return failure != null ? failure : failures().of(cause, moved);
        }
        TransferException e = failures().of(cause, moved);
        END.compareAndSet(this, 0, ENDED); // a cancel from now on is too late
        over(State.FAILED, e, e.getCause() instanceof CancellationException ? "cancelled" : "failed");
        listener.onFailure(e);
        if (cause instanceof Error && !(e instanceof TruncatedSourceException)) {
            throw (Error) cause;
        }
        return e;
    }

    /** Closes the step (or gives back what the choice took) and what the library opened; see {@link TransferFailures#closeAfter}. */
    private void releaseQuietly(TransferException failure) {
        TransferStep s = step;
        step = null;
        if (s == null) {
            choice.release();
        }
        if (prefix != null) {
            prefix.release();
        }
        TransferFailures.closeAfter(s, failure);
        TransferFailures.closeAfter(owned, failure);
    }

    TransferFacts facts() {
        return facts;
    }

    /** How long and how often the transfer has moved nothing: the engine's clock for waits and the stall timeout. */
    Stall stall() {
        if (stall == null) {
            stall = new Stall(facts, failures());
        }
        return stall;
    }

    /** Bytes moved, or a pause of the rate limit: a stall, if one began, is over. */
    private void progressed() {
        if (stall != null) {
            stall.progressed();
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
        return facts.totalCount();
    }

    @Override
    public int interestOps() {
        return interestOps;
    }

    @Override
    public long delayNanos() {
        return state != State.RUNNING || pacer == null ? 0 : pacer.delayNanos();
    }

    @Override
    public TransferResult result() {
        if (state != State.DONE) {
            throw new IllegalStateException("not done: " + this);
        }
        if (result == null) {
            result = new TransferResult(moved, choice, Duration.ofNanos(started));
        }
        return result;
    }

    /** Ends it as cancelled at its next step, or as the step under way returns; false if it ended first. Any thread. */
    boolean cancel() {
        return END.compareAndSet(this, 0, CANCELLED) || end == CANCELLED;
    }

    /** Whether {@link #cancel} came before the transfer's end: the blocking loop then opens no wait. */
    boolean isCancelled() {
        return end == CANCELLED;
    }

    /** Releases what the transfer holds without telling the listener: the blocking engine's last resort. */
    void abandon() {
        if (state == State.RUNNING) {
            over(State.CLOSED, null, "failed");
        }
    }

    /** Leaves {@code RUNNING} for good, before the listener hears how: what it holds is released. */
    private void over(State to, TransferException failed, String outcome) {
        state = to;
        interestOps = 0;
        failure = failed;
        releaseQuietly(failed);
        record(outcome);
    }

    /** Ends the transfer's flight recorder event, if a recording wanted one. */
    private void record(String outcome) {
        if (event != null) {
            long stalled = stall == null ? 0 : stall.stalledInAll(System.nanoTime());
            TransferEvents.end(event, facts, choice, moved, count(), stalled, outcome);
            event = null;
        }
    }

    @Override
    public void close() {
        Thread me = Thread.currentThread();
        boolean driving = driver == me; // a listener's close, within advance()
        if (!driving) {
            closeLater = true;
            if (!DRIVER.compareAndSet(this, null, me)) {
                return; // the thread in advance() closes it as that call returns
            }
        }
        try {
            if (state == State.RUNNING) {
                TransferException abandoned = failures().abandoned(moved);
                over(State.CLOSED, abandoned, "closed");
                listener.onFailure(abandoned);
            }
        } finally {
            if (!driving) {
                driver = null;
            }
        }
    }

    @Override
    public String toString() {
        return "Transfer{" + facts.request() + (prefix == null ? "" : " after a " + prefix) + " via "
                + choice.strategy.name() + ", " + moved + " of " + TransferFailures.countWords(count())
                + " bytes, " + state + "}";
    }
}
