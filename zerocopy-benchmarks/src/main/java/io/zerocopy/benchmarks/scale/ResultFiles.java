package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The output directory of a run: {@code rounds.csv} (one line per contender run, appended as they
 * finish, so an interrupted run keeps what it measured) and {@code summary.csv} (rewritten after
 * every cell). {@link ScaleReport} turns summaries into tables and a chart.
 */
final class ResultFiles {
    private final Path rounds;
    private final Path summary;
    private final String jdk = Integer.toString(Runtime.version().feature());
    private final String jvm = jvmLabel();
    private final List<String> summaryLines = new ArrayList<>();

    ResultFiles(Path dir) throws IOException {
        Files.createDirectories(dir);
        rounds = dir.resolve("rounds.csv");
        summary = dir.resolve("summary.csv");
        Files.writeString(rounds, RunResult.CSV_HEADER + "\n", StandardCharsets.UTF_8);
        summaryLines.add(Summary.CSV_HEADER);
        Files.write(summary, summaryLines, StandardCharsets.UTF_8);
    }

    Path summary() {
        return summary;
    }

    void add(RunResult run) {
        try {
            Files.writeString(rounds, run.csvLine(jdk, jvm) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Summary> addCell(Cell cell, List<RunResult> runs) throws IOException {
        List<Summary> lines = Summary.of(cell, runs, jdk, jvm);
        for (Summary line : lines) {
            summaryLines.add(line.csvLine());
        }
        Files.write(summary, summaryLines, StandardCharsets.UTF_8);
        return lines;
    }

    /**
     * The JVM flags that change what a cell can do ({@code -Xmx}, {@code -XX:MaxDirectMemorySize}),
     * space-separated, or {@code default}.
     */
    static String jvmLabel() {
        List<String> flags = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-Xmx") || arg.startsWith("-XX:MaxDirectMemorySize")) {
                flags.add(arg);
            }
        }
        return flags.isEmpty() ? "default" : String.join(" ", flags);
    }
}
