package io.zerocopy.benchmarks.scale;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One line of {@code summary.csv}: a contender in a cell, over all its rounds. Throughput and
 * transfer times are medians over rounds; {@code ratio} is the median of the per-round paired
 * ratios (the contender's GB/s over the best contender's GB/s in the same round); CPU per GB is
 * all rounds' CPU over all their bytes, since the process clock counts in 10 ms ticks
 * ({@code cpuSeconds} says how much was measured); peak direct memory is the highest of any round;
 * failures are summed.
 */
record Summary(
        String jdk,
        String jvm,
        String threads,
        String pair,
        long size,
        int n,
        boolean slow,
        String contender,
        int rounds,
        double gbps,
        double ratio,
        double cpuSecPerGb,
        double cpuSeconds,
        double peakDirectMiB,
        double directStartMiB,
        double p99Ms,
        double medianMs,
        int failures,
        int transfers,
        String firstFailure) {

    static final String CSV_HEADER = "jdk,jvm,threads,pair,size,n,slow,contender,rounds,gbps,ratioToBest,cpuSecPerGB,"
            + "cpuSeconds,peakDirectMiB,directStartMiB,p99Ms,medianMs,failures,transfers,firstFailure";

    /** The cell this line belongs to, as text: all but the contender and the measures. */
    String cellKey() {
        return String.join(
                "|", jdk, jvm, threads, pair, Long.toString(size), Integer.toString(n), Boolean.toString(slow));
    }

    String csvLine() {
        return String.join(
                ",",
                jdk,
                jvm,
                threads,
                pair,
                Long.toString(size),
                Integer.toString(n),
                Boolean.toString(slow),
                contender,
                Integer.toString(rounds),
                Stats.format(gbps),
                Stats.format(ratio),
                Stats.format(cpuSecPerGb),
                Stats.format(cpuSeconds),
                Stats.format(peakDirectMiB),
                Stats.format(directStartMiB),
                Stats.format(p99Ms),
                Stats.format(medianMs),
                Integer.toString(failures),
                Integer.toString(transfers),
                Stats.csvText(firstFailure));
    }

    static Summary parse(String line) {
        String[] f = line.split(",", 20);
        return new Summary(
                f[0],
                f[1],
                f[2],
                f[3],
                Long.parseLong(f[4]),
                Integer.parseInt(f[5]),
                Boolean.parseBoolean(f[6]),
                f[7],
                Integer.parseInt(f[8]),
                Double.parseDouble(f[9]),
                Double.parseDouble(f[10]),
                Double.parseDouble(f[11]),
                Double.parseDouble(f[12]),
                Double.parseDouble(f[13]),
                Double.parseDouble(f[14]),
                Double.parseDouble(f[15]),
                Double.parseDouble(f[16]),
                Integer.parseInt(f[17]),
                Integer.parseInt(f[18]),
                f.length > 19 ? f[19] : "");
    }

    /** Summarises the runs of one cell, contenders in the cell's order. */
    static List<Summary> of(Cell cell, List<RunResult> runs, String jdk, String jvm) {
        Map<Integer, Double> bestByRound = new LinkedHashMap<>();
        for (RunResult run : runs) {
            bestByRound.merge(run.round(), run.gbps(), Math::max);
        }
        List<Summary> lines = new ArrayList<>();
        for (String contender : cell.contenders()) {
            List<Double> gbps = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            long cpuNanos = 0;
            long bytes = 0;
            List<Double> directStart = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> median = new ArrayList<>();
            double peak = 0;
            int failures = 0;
            int transfers = 0;
            String firstFailure = "";
            for (RunResult run : runs) {
                if (!run.contender().equals(contender)) {
                    continue;
                }
                gbps.add(run.gbps());
                ratios.add(run.gbps() / bestByRound.get(run.round()));
                cpuNanos += run.cpuNanos();
                bytes += run.bytes();
                directStart.add(run.memory().directAtStart() / (double) (1 << 20));
                p99.add(run.p99Millis());
                median.add(run.medianMillis());
                peak = Math.max(peak, run.memory().direct() / (double) (1 << 20));
                failures += run.failures();
                transfers += run.batches() * cell.n();
                if (firstFailure.isEmpty()) {
                    firstFailure = run.firstFailure();
                }
            }
            if (!gbps.isEmpty()) {
                lines.add(new Summary(
                        jdk,
                        jvm,
                        cell.threads().id,
                        cell.pair().id,
                        cell.size(),
                        cell.n(),
                        cell.slow(),
                        contender,
                        gbps.size(),
                        Stats.median(gbps),
                        Stats.median(ratios),
                        bytes > 0 ? cpuNanos / (double) bytes : Double.NaN,
                        cpuNanos / 1e9,
                        peak,
                        Stats.median(directStart),
                        Stats.median(p99),
                        Stats.median(median),
                        failures,
                        transfers,
                        firstFailure));
            }
        }
        return lines;
    }
}
