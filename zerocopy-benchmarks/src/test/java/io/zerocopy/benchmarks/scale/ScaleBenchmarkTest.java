package io.zerocopy.benchmarks.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs a tiny cell end to end (a real peer process, N = 2, 64 KiB, one round), so the harness
 * cannot rot; it measures nothing worth reading.
 */
class ScaleBenchmarkTest {

    @Test
    void run_tinyCells_everyContenderSucceedsAndEveryFileIsWritten(@TempDir Path out)
            throws IOException, InterruptedException {
        Path summary = ScaleBenchmark.run(ScaleOptions.parse(
                "--plan",
                "full",
                "--pairs",
                "loopback,socketToFile",
                "--threads",
                "platform",
                "--sizes",
                "64k",
                "--n",
                "2",
                "--rounds",
                "1",
                "--no-warmup",
                "--out",
                out.toString()));

        List<Summary> lines = Files.readAllLines(summary, StandardCharsets.UTF_8).stream()
                .skip(1)
                .map(Summary::parse)
                .collect(Collectors.toList());
        List<String> expected = new java.util.ArrayList<>(ScaleContenders.planned(Pair.LOOPBACK));
        expected.addAll(ScaleContenders.planned(Pair.SOCKET_TO_FILE));
        assertThat(lines).extracting(Summary::contender).containsExactlyElementsOf(expected);
        for (Summary line : lines) {
            assertThat(line.failures())
                    .as(line.contender() + ": " + line.firstFailure())
                    .isZero();
            // 2 x 64 KiB is a small cell: a run repeats it up to 32 times
            assertThat(line.transfers()).isEqualTo(2 * CellRunner.MAX_BATCHES);
            assertThat(line.gbps()).as(line.contender()).isPositive();
            assertThat(line.ratio()).as(line.contender()).isBetween(0.0, 1.0);
        }
        assertThat(Files.readAllLines(out.resolve("rounds.csv"), StandardCharsets.UTF_8))
                .hasSize(1 + expected.size());
        assertThat(Files.readString(out.resolve("summary.md"), StandardCharsets.UTF_8))
                .contains(
                        "### file → loopback socket, 64 KiB", "### loopback socket → file, 64 KiB", "| **default** |");
        assertThat(Files.size(out.resolve("scale.png"))).isPositive();
    }
}
