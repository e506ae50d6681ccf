package io.zerocopy;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs blocking copies on another thread for {@code copyAsync}: a virtual thread per copy on Java
 * 21 and later, a small pool of daemon threads before that, or the caller's executor.
 */
final class AsyncCopies {

    /**
     * Threads of the pool used before Java 21: two per core, at least four. A copy to a slow client
     * holds its thread for as long as the client takes, so a server with many such copies should pass
     * an executor of its own; the pool is only the fallback.
     */
    static final int POOL_THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    /** A blocking copy, run on the executor's thread; it hands its engine over so that it can be cancelled. */
    interface Task {
        TransferResult run(Handle handle) throws Exception;
    }

    /**
     * The future of one copy. Cancelling it stops the copy at its next step boundary, without
     * interrupting the thread or closing a channel.
     */
    static final class Handle extends CompletableFuture<TransferResult> {
        private volatile Engine engine;

        /** Called by the task once its engine exists: a cancel that came first reaches it now. */
        void attach(Engine e) {
            engine = e;
            if (isCancelled()) {
                e.cancel();
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            Engine e = engine;
            if (cancelled && e != null) {
                e.cancel();
            }
            return cancelled;
        }
    }

    private AsyncCopies() {
    }

    /** Starts {@code task} on {@code executor}; the future completes with its result or failure. */
    static CompletableFuture<TransferResult> start(Task task, Executor executor) {
        Handle handle = new Handle();
        executor.execute(() -> {
            if (handle.isCancelled()) {
                return;
            }
            try {
                handle.complete(task.run(handle));
            } catch (Throwable t) {
                handle.completeExceptionally(t);
                if (t instanceof Error) {
                    throw (Error) t;
                }
            }
        });
        return handle;
    }

    /** The executor {@code copyAsync} uses when the caller names none. */
    static Executor defaultExecutor() {
        return DefaultExecutor.INSTANCE;
    }

    private static final class DefaultExecutor {
        static final Executor INSTANCE = create();

        private static Executor create() {
            if (Runtime.version().feature() >= 21) {
                try {
                    Method perTask = java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
                    return (ExecutorService) perTask.invoke(null);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // fall through to the pool
                }
            }
            AtomicInteger n = new AtomicInteger();
            ThreadFactory daemons = r -> {
                Thread t = new Thread(r, "zerocopy-async-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            };
            ThreadPoolExecutor pool = new ThreadPoolExecutor(POOL_THREADS, POOL_THREADS, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), daemons);
            pool.allowCoreThreadTimeOut(true);
            return pool;
        }
    }
}
