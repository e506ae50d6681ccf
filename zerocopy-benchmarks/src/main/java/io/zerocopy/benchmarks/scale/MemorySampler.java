package io.zerocopy.benchmarks.scale;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples the JVM's direct and mapped buffer pools ({@code BufferPoolMXBean}) every 10 ms while a
 * run is on, keeping the peaks. One daemon thread for the whole benchmark.
 */
final class MemorySampler implements AutoCloseable {
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final BufferPoolMXBean direct = pool("direct");
    private final BufferPoolMXBean mapped = pool("mapped");
    private final Thread thread;
    private volatile boolean active;
    private volatile boolean closed;
    private volatile long peakDirect;
    private volatile long peakMapped;

    /** The peaks of one run and the direct memory in use when it began, in bytes. */
    record Peaks(long directAtStart, long direct, long mapped) {}

    MemorySampler() {
        thread = new Thread(this::sampleLoop, "scale-memory-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private static BufferPoolMXBean pool(String name) {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals(name)) {
                return pool;
            }
        }
        throw new IllegalStateException("no " + name + " buffer pool in this JVM");
    }

    /**
     * Lets the garbage collector free the direct buffers earlier runs dropped, so that each run
     * starts from what is really held: a GC, then up to a second for the cleaners to catch up.
     */
    void settle() {
        System.gc();
        long deadline = System.nanoTime() + SETTLE_NANOS;
        long last = direct.getMemoryUsed();
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(PERIOD_NANOS);
            long now = direct.getMemoryUsed();
            if (now == last) {
                return;
            }
            last = now;
        }
    }

    /** Starts a run's sampling. */
    long begin() {
        long now = direct.getMemoryUsed();
        peakDirect = now;
        peakMapped = mapped.getMemoryUsed();
        active = true;
        return now;
    }

    /** Ends a run's sampling with a last sample. */
    Peaks end(long directAtStart) {
        sample();
        active = false;
        return new Peaks(directAtStart, peakDirect, peakMapped);
    }

    private void sampleLoop() {
        while (!closed) {
            if (active) {
                sample();
            }
            LockSupport.parkNanos(PERIOD_NANOS);
        }
    }

    private synchronized void sample() {
        peakDirect = Math.max(peakDirect, direct.getMemoryUsed());
        peakMapped = Math.max(peakMapped, mapped.getMemoryUsed());
    }

    @Override
    public void close() {
        closed = true;
    }
}
