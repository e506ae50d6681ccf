package io.zerocopy.benchmarks.scale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One contender's run of one cell in one round: what moved, how long until the peer confirmed the
 * last byte, what it cost the sender process, and how each transfer ended.
 *
 * @param order the contender's place in the round's rotation, from 0
 * @param batches how many times the N transfers ran (see {@link CellRunner#batches}); the other
 *     figures add up all of them
 * @param wallNanos from the start of all N transfers to the last confirmation
 * @param cpuNanos the sender process's CPU time over the run (all its threads)
 * @param transferMillis each successful transfer's own time, sorted
 */
record RunResult(
        Cell cell,
        String contender,
        int round,
        int order,
        int batches,
        long bytes,
        long wallNanos,
        long cpuNanos,
        MemorySampler.Peaks memory,
        List<Double> transferMillis,
        int failures,
        String firstFailure) {

    static final String CSV_HEADER = "jdk,jvm,threads,pair,size,n,slow,round,order,contender,batches,bytes,wallMs,gbps,"
            + "cpuSecPerGB,directStartMiB,directPeakMiB,mappedPeakMiB,medianMs,p99Ms,failures,firstFailure";

    RunResult {
        List<Double> sorted = new ArrayList<>(transferMillis);
        Collections.sort(sorted);
        transferMillis = List.copyOf(sorted);
    }

    /** Aggregate throughput: confirmed bytes over the wall time, in GB/s (10^9 bytes). */
    double gbps() {
        return wallNanos > 0 ? (double) bytes / wallNanos : Double.NaN;
    }

    /** Sender CPU seconds per GB moved. */
    double cpuSecondsPerGb() {
        return bytes > 0 ? cpuNanos / (double) bytes : Double.NaN;
    }

    double medianMillis() {
        return Stats.median(transferMillis);
    }

    double p99Millis() {
        return Stats.percentile(transferMillis, 99);
    }

    /** One line of {@code rounds.csv}; see {@link #CSV_HEADER}. */
    String csvLine(String jdk, String jvm) {
        return String.join(
                ",",
                jdk,
                jvm,
                cell.threads().id,
                cell.pair().id,
                Long.toString(cell.size()),
                Integer.toString(cell.n()),
                Boolean.toString(cell.slow()),
                Integer.toString(round),
                Integer.toString(order),
                contender,
                Integer.toString(batches),
                Long.toString(bytes),
                Stats.format(wallNanos / 1e6),
                Stats.format(gbps()),
                Stats.format(cpuSecondsPerGb()),
                Stats.format(memory.directAtStart() / MIB),
                Stats.format(memory.direct() / MIB),
                Stats.format(memory.mapped() / MIB),
                Stats.format(medianMillis()),
                Stats.format(p99Millis()),
                Integer.toString(failures),
                Stats.csvText(firstFailure));
    }

    private static final double MIB = 1 << 20;

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%-16s %6.2f GB/s  cpu %5.2f s/GB  direct %7.1f MiB  p99 %8.1f ms%s",
                contender,
                gbps(),
                cpuSecondsPerGb(),
                memory.direct() / MIB,
                p99Millis(),
                failures == 0 ? "" : "  FAILED " + failures + ": " + firstFailure);
    }
}
