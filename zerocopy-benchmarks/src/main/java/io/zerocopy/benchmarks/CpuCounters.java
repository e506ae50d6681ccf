package io.zerocopy.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * CPU time of the copying thread, read from its own per-thread clock around every operation, and
 * the bytes it moved; JMH reports both as secondary results ({@code cpuNanos}, {@code bytes}) and
 * {@link CommittedRun} divides them into CPU milliseconds per GB. Time the thread spends blocked
 * (waiting for a peer's acknowledgement) is not CPU time and does not count; the peer's own CPU
 * (receiver thread or process) is not included.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuCounters {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU nanoseconds the benchmark thread used in this iteration's operations. */
    public long cpuNanos;
    /** Bytes moved in this iteration. */
    public long bytes;

    private long started;

    /** Clears the counters for a new iteration. */
    @Setup(Level.Iteration)
    public void reset() {
        cpuNanos = 0;
        bytes = 0;
    }

    void start() {
        started = THREADS.getCurrentThreadCpuTime();
    }

    void stop(long moved) {
        cpuNanos += THREADS.getCurrentThreadCpuTime() - started;
        bytes += moved;
    }
}
