package io.zerocopy.benchmarks.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The arithmetic behind the tables: paired ratios, medians, failures, and the CSV round trip. */
class SummaryTest {
    private static final Cell CELL = new Cell(Pair.LOOPBACK, ThreadKind.PLATFORM, 1000, 2, false, List.of("a", "b"), 3);

    private static RunResult run(String contender, int round, long wallNanos, int failures) {
        return new RunResult(
                CELL,
                contender,
                round,
                0,
                1,
                2000,
                wallNanos,
                1_000_000,
                new MemorySampler.Peaks(0, (round + 1) << 20, 0),
                List.of(2.0, 1.0),
                failures,
                failures > 0 ? "IOException: boom, twice" : "");
    }

    @Test
    void of_pairsRatiosWithinEachRound() {
        // round 0: a 2 GB/s, b 1 GB/s; round 1: a 1, b 2; round 2: a 2, b 1.6
        List<RunResult> runs = List.of(
                run("a", 0, 1000, 0),
                run("b", 0, 2000, 0),
                run("a", 1, 2000, 0),
                run("b", 1, 1000, 1),
                run("a", 2, 1000, 0),
                run("b", 2, 1250, 0));

        List<Summary> lines = Summary.of(CELL, runs, "25", "default");

        assertThat(lines).extracting(Summary::contender).containsExactly("a", "b");
        Summary a = lines.get(0);
        Summary b = lines.get(1);
        assertThat(a.gbps()).isEqualTo(2.0);
        assertThat(a.ratio()).isEqualTo(1.0); // ratios 1, 0.5, 1
        assertThat(b.ratio()).isEqualTo(0.8, within(1e-9)); // ratios 0.5, 1, 0.8
        assertThat(b.failures()).isEqualTo(1);
        assertThat(b.transfers()).isEqualTo(6); // 3 runs of one batch of 2
        assertThat(b.peakDirectMiB()).isEqualTo(3.0);
        assertThat(a.cpuSecPerGb()).isEqualTo(3_000_000 / 6000.0);
        assertThat(a.p99Ms()).isEqualTo(2.0);
        assertThat(a.medianMs()).isEqualTo(1.5);
    }

    @Test
    void parse_readsBackWhatCsvLineWrote() {
        Summary b = Summary.of(CELL, List.of(run("a", 0, 1000, 0), run("b", 0, 2000, 1)), "17", "-Xmx64m")
                .get(1);

        Summary read = Summary.parse(b.csvLine());

        assertThat(read.cellKey()).isEqualTo(b.cellKey());
        assertThat(read.contender()).isEqualTo("b");
        assertThat(read.ratio()).isEqualTo(0.5);
        assertThat(read.failures()).isEqualTo(1);
        assertThat(read.firstFailure()).isEqualTo("IOException: boom; twice");
    }

    @Test
    void percentile_nearestRank() {
        List<Double> values = List.of(5.0, 1.0, 4.0, 2.0, 3.0);
        assertThat(Stats.percentile(values, 50)).isEqualTo(3.0);
        assertThat(Stats.percentile(values, 99)).isEqualTo(5.0);
        assertThat(Stats.median(List.of(1.0, 4.0))).isEqualTo(2.5);
        assertThat(Stats.percentile(List.of(), 99)).isNaN();
    }
}
