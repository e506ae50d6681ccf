package io.zerocopy.tests;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The kind of thread a failure-matrix test runs its copy on. The matrix classes run on
 * {@link #PLATFORM} threads; their {@code VirtualThread*Test} subclasses, left out before Java 21
 * (see the module's pom), run the same cases on {@link #VIRTUAL} threads, where the JDK runs a
 * blocking socket non-blocking underneath and parks the thread instead of blocking in the kernel.
 */
enum ThreadKind {
    PLATFORM {
        @Override
        Thread newThread(Runnable task, String name) {
            return new Thread(task, name);
        }

        @Override
        long cpuTimeNanos(Thread thread) {
            return THREADS.getThreadCpuTime(thread.getId());
        }
    },

    /** Java 21 and later; reached by reflection, since the tests compile for Java 17. */
    VIRTUAL {
        @Override
        Thread newThread(Runnable task, String name) {
            try {
                Class<?> builderType = Class.forName("java.lang.Thread$Builder");
                Object builder = builderType
                        .getMethod("name", String.class)
                        .invoke(Thread.class.getMethod("ofVirtual").invoke(null), name);
                Thread thread =
                        ((ThreadFactory) builderType.getMethod("factory").invoke(builder)).newThread(task);
                if (!(boolean) Thread.class.getMethod("isVirtual").invoke(thread)) {
                    throw new IllegalStateException(thread + " is not a virtual thread");
                }
                return thread;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("virtual threads need Java 21 or later", e);
            }
        }

        /**
         * The JDK measures no CPU time per virtual thread: this is the CPU time of the threads that
         * carry virtual threads, which in these tests carry only the copying one (and the JDK's
         * pollers, which park while nothing is ready).
         */
        @Override
        long cpuTimeNanos(Thread thread) {
            long total = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getClass().getName().equals("jdk.internal.misc.CarrierThread")) {
                    long cpu = THREADS.getThreadCpuTime(t.getId());
                    total += Math.max(cpu, 0);
                }
            }
            return total;
        }
    };

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Upper bound for {@link #call}; tests' own {@code @Timeout}s are shorter. */
    private static final long WAIT_SECONDS = 120;

    /** A new, unstarted thread of this kind. */
    abstract Thread newThread(Runnable task, String name);

    /**
     * CPU time used so far by {@code thread}, a live thread of this kind, in nanoseconds: only
     * differences between two readings mean something.
     */
    abstract long cpuTimeNanos(Thread thread);

    /** Runs {@code task} on a new thread of this kind, waits for it and returns its result or throws what it threw. */
    <T> T call(Callable<T> task) throws Exception {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        Thread thread = newThread(
                () -> {
                    try {
                        outcome.complete(task.call());
                    } catch (Throwable t) {
                        outcome.completeExceptionally(t);
                    }
                },
                "copying-" + name().toLowerCase());
        thread.start();
        try {
            return outcome.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
    }

    /**
     * Opens what the JDK opens on the first use of sockets from a thread of this kind and keeps
     * for the life of the JVM, so that a count of descriptors taken afterwards is a baseline: the
     * socket of {@link ProcSelf#openWhatTheJdkKeeps()} and, for virtual threads, the pollers that
     * park them (JDK 25 creates them all at the first park of a virtual thread on a socket).
     */
    void openWhatTheJdkKeeps() throws Exception {
        ProcSelf.openWhatTheJdkKeeps();
        if (this != VIRTUAL) {
            return;
        }
        call(() -> {
            try (ServerSocketChannel server = ServerSocketChannel.open()
                            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                    SocketChannel client = SocketChannel.open(server.getLocalAddress());
                    SocketChannel accepted = server.accept()) {
                Thread reader = Thread.currentThread();
                Thread writer = new Thread(
                        () -> {
                            // the byte is sent once the reader waits for it (parked), so that its read parks
                            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
                            while (reader.getState() == Thread.State.RUNNABLE && System.nanoTime() < deadline) {
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval
                            }
                            try {
                                client.write(ByteBuffer.wrap(new byte[] {1}));
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        "warm-up-writer");
                writer.start();
                if (accepted.read(ByteBuffer.allocate(1)) != 1) {
                    throw new IOException("warm-up read failed");
                }
                writer.join();
            }
            return null;
        });
    }
}
