package io.zerocopy.benchmarks;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * CPU time and heap allocation of the copying thread, read from its own per-thread counters around
 * every operation, and the bytes it moved; JMH reports them as secondary results
 * ({@code cpuNanos}, {@code allocatedBytes}, {@code bytes}) and {@link CommittedRun} divides them
 * into CPU milliseconds per GB and bytes allocated per operation. Time the thread spends blocked
 * (waiting for a peer's acknowledgement) is not CPU time and does not count; the peer's own CPU and
 * allocation (receiver thread or process) are not included. Unlike JMH's {@code gc.alloc.rate.norm},
 * which spreads the whole JVM's allocation (JMH's own threads included) over the operations, this
 * counts only what the copy allocated.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuCounters {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** CPU nanoseconds the benchmark thread used in this iteration's operations. */
    public long cpuNanos;
    /** Heap bytes the benchmark thread allocated in this iteration's operations. */
    public long allocatedBytes;
    /** Bytes moved in this iteration. */
    public long bytes;

    private long started;
    private long allocatedBefore;

    /** Clears the counters for a new iteration. */
    @Setup(Level.Iteration)
    public void reset() {
        cpuNanos = 0;
        allocatedBytes = 0;
        bytes = 0;
    }

    void start() {
        allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
        started = THREADS.getCurrentThreadCpuTime();
    }

    void stop(long moved) {
        cpuNanos += THREADS.getCurrentThreadCpuTime() - started;
        allocatedBytes += THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
        bytes += moved;
    }
}
