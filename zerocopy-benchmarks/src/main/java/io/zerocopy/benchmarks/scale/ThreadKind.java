package io.zerocopy.benchmarks.scale;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run the blocking contenders: one new thread per transfer, platform or virtual.
 * Virtual threads are reached reflectively, since this module compiles with {@code --release 17}.
 */
enum ThreadKind {
    PLATFORM("platform"),
    VIRTUAL("virtual");

    final String id;

    ThreadKind(String id) {
        this.id = id;
    }

    static ThreadKind of(String id) {
        return Ids.find(values(), kind -> kind.id, "threads", id);
    }

    /** Null if this JVM can run this kind, else why not. */
    String unavailableBecause() {
        if (this == PLATFORM) {
            return null;
        }
        try {
            newExecutor().shutdown();
            return null;
        } catch (ReflectiveOperationException e) {
            return "virtual threads need JDK 21 or later (this is JDK "
                    + Runtime.version().feature() + ")";
        }
    }

    /**
     * A new executor that gives every task a thread of its own; shut it down after the run so no
     * thread (nor its thread-local buffers) lives on into the next run.
     */
    ExecutorService newExecutor() throws ReflectiveOperationException {
        if (this == VIRTUAL) {
            return (ExecutorService)
                    Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        }
        AtomicInteger count = new AtomicInteger();
        return Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "scale-transfer-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }
}
