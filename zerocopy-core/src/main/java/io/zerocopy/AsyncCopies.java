package io.zerocopy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Runs blocking copies on the caller's executor for {@code copyAsync}, with a future whose
 * {@code cancel} reaches the copy.
 */
final class AsyncCopies {

    /** A blocking copy, run on the executor's thread; it hands its engine over so that it can be cancelled. */
    interface Task {
        TransferResult run(Handle handle) throws Exception;
    }

    /**
     * The future of one copy. Cancelling it stops the copy at its next step boundary, without
     * interrupting the thread or closing a channel.
     */
    static final class Handle extends CompletableFuture<TransferResult> {
        /** The copy's engine once it exists, whether a cancel came, and whether the task began: under this lock. */
        private Engine engine;

        private boolean cancelRequested;
        private boolean began;

        /** Whether the task may run now: not cancelled, and not run before (an executor that runs it twice). */
        synchronized boolean begin() {
            boolean first = !began && !isCancelled();
            began = true;
            return first;
        }

        /** Called by the task once its engine exists: a cancel that came first reaches it now. */
        synchronized Engine attach(Engine e) {
            engine = e;
            if (cancelRequested) {
                e.cancel();
            }
            return e;
        }

        /**
         * Cancels the copy first, then the future: true only where the copy had not ended, so that it
         * ends as cancelled whatever the future's dependent actions, which run within this call, do.
         */
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            synchronized (this) {
                if (engine != null && !engine.cancel()) {
                    return false; // it ended first: its own outcome completes the future
                }
                cancelRequested = true;
            }
            return super.cancel(mayInterruptIfRunning);
        }

        /** Ends the future with the copy's failure, or as cancelled where a cancel reached the copy first. */
        void fail(Throwable failure) {
            Engine e;
            synchronized (this) {
                e = engine;
            }
            if (e != null && e.isCancelled()) {
                super.cancel(false); // the copy ended as the cancel said, maybe before the cancel got here
            } else {
                completeExceptionally(failure);
            }
        }
    }

    private AsyncCopies() {}

    /** Starts {@code task} on {@code executor}; the future completes with its result or failure. */
    static CompletableFuture<TransferResult> start(Task task, Executor executor) {
        Handle handle = new Handle();
        executor.execute(() -> {
            if (!handle.begin()) {
                return;
            }
            try {
                handle.complete(task.run(handle));
            } catch (Throwable t) {
                handle.fail(t); // an Error too, as CompletableFuture.supplyAsync: the future is where it is told
            }
        });
        return handle;
    }
}
