package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare} in quick mode: its table, CSV files and PNG chart, and its option errors. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CompareCommandTest {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    @Test
    void compareQuick_writesCsvAndPng_andCleansUp() throws Exception {
        Path out = dir.resolve("results");

        Cli.Run run = Cli.exec("compare", "--quick", "--out", out.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        List<Map<String, String>> rows = csv(out.resolve("compare.csv"));
        assertThat(rows).extracting(r -> r.get("size_bytes")).containsExactly("65536", "1048576");
        for (Map<String, String> row : rows) {
            for (String column : List.of("loop_ms", "transferto_ms", "auto_ms", "transferto_vs_loop")) {
                assertThat(Double.parseDouble(row.get(column))).as(column).isPositive();
            }
            double ratio = Double.parseDouble(row.get("transferto_vs_loop"));
            assertThat(Double.parseDouble(row.get("saved_percent"))).isCloseTo((1 - ratio) * 100, within(0.1));
            assertThat(row.get("auto_strategy")).isNotBlank();
            assertThat(row.get("runs")).isEqualTo("1");
            assertThat(row.get("nodelay")).isEqualTo("false");
        }
        // one line per size and method in the runs file
        assertThat(csv(out.resolve("compare-runs.csv"))).hasSize(2 * 3);

        byte[] png = Files.readAllBytes(out.resolve("compare.png"));
        assertThat(png.length).isGreaterThan(1000);
        assertThat(Arrays.copyOf(png, PNG_SIGNATURE.length)).isEqualTo(PNG_SIGNATURE);

        assertThat(run.out()).contains("| 64 KiB |", "| 1 MiB |");
        Matcher temp = Pattern.compile("in (\\S*zerocopy-compare\\S*)").matcher(run.out());
        assertThat(temp.find()).as("the temporary directory is named").isTrue();
        assertThat(Path.of(temp.group(1))).doesNotExist();
    }

    /** On a runtime of {@code java.base} alone (a jlink image), a child JVM: the tables, no chart, exit 0. */
    @Test
    void compareQuick_onARuntimeWithoutAwt_writesTheCsvFilesAndSaysThereIsNoChart() throws Exception {
        Path out = dir.resolve("results");
        Path printed = dir.resolve("printed.txt");
        Process process = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElseThrow(),
                        "--limit-modules",
                        "java.base",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "compare",
                        "--quick",
                        "--no-progress",
                        "--sizes",
                        "64K",
                        "--out",
                        out.toString())
                .redirectErrorStream(true)
                .redirectOutput(printed.toFile())
                .start();
        try {
            assertThat(process.waitFor(100, TimeUnit.SECONDS))
                    .as("the child JVM ends")
                    .isTrue();
        } finally {
            process.destroyForcibly();
        }
        String text = Files.readString(printed);

        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("no chart: this Java runtime has no java.desktop module");
        assertThat(csv(out.resolve("compare.csv")))
                .extracting(r -> r.get("size_bytes"))
                .containsExactly("65536");
        assertThat(out.resolve("compare.png")).doesNotExist();
    }

    @Test
    void compare_aSizeOfThe2008Table_showsTheOriginalFigures() throws Exception {
        Path out = dir.resolve("results");

        Cli.Run run = Cli.exec("compare", "--quick", "--nodelay", "--sizes", "7M", "--out", out.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        // the 2008 article's figures for 7 MB
        assertThat(run.out()).contains("| 7 MiB | 156 | 45 | 71% |");
        Map<String, String> row = csv(out.resolve("compare.csv")).get(0);
        assertThat(row)
                .containsEntry("size_bytes", String.valueOf(7 << 20))
                .containsEntry("original_loop_ms", "156")
                .containsEntry("original_transferto_ms", "45")
                .containsEntry("nodelay", "true");
    }

    @Test
    void compare_badSizes_isAUsageErrorNamingTheOption() {
        for (String sizes : List.of("7X", "0", "-1M", "")) {
            Cli.Run run = Cli.exec("compare", "--sizes", sizes, "--out", dir.toString());
            assertThat(run.exit()).as(sizes).isEqualTo(2);
            assertThat(run.err()).as(sizes).contains("--sizes");
        }
    }

    @Test
    void compare_zeroRuns_isAUsageErrorNamingTheOption() {
        Cli.Run run = Cli.exec("compare", "--quick", "--runs", "0", "--out", dir.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--runs");
    }

    /**
     * A chart that fails while it is drawn (here a median of 0 ms, which a logarithmic axis cannot
     * show) leaves the previous chart as it was, and nothing else beside it: it is drawn into a
     * file of its own, moved over the previous one only when complete.
     */
    @Test
    void chart_thatFailsToDraw_leavesThePreviousChartAsItWas() throws Exception {
        Path png = dir.resolve("compare.png");
        byte[] previous = TestData.bytes(5000, 3);
        Files.write(png, previous);
        List<ComparisonRow> rows = List.of(new ComparisonRow(1 << 20, 0, 1, 1, "transferTo", 1));

        assertThatThrownBy(() -> ComparisonChart.write(png, rows, false)).isInstanceOf(IllegalArgumentException.class);

        assertThat(Files.readAllBytes(png)).isEqualTo(previous);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(png);
        }
    }

    /**
     * Ctrl-C (SIGINT) while {@code compare} runs, in a child JVM: its generated files go with it, and
     * the previous results in --out stay as they were. The sizes are large enough that the signal,
     * sent once the files' directory is named, comes long before the end.
     */
    @Test
    void compare_interrupted_deletesItsGeneratedFiles_andKeepsThePreviousResults() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path out = Files.createDirectory(dir.resolve("results"));
        byte[] previous = TestData.bytes(5000, 4);
        for (String name : List.of("compare.png", "compare.csv", "compare-runs.csv")) {
            Files.write(out.resolve(name), previous);
        }
        try (ChildMain child = ChildMain.start(
                List.of(),
                List.of("-Djava.io.tmpdir=" + tmp),
                "compare",
                "--no-progress",
                "--sizes",
                "256M,256M",
                "--runs",
                "5",
                "--out",
                out.toString())) {
            child.awaitLine("Generating 2 files", 60);
            child.signal("INT");
            Cli.Run run = child.await(60);
            assertThat(run.exit()).as(run.out()).isEqualTo(130);
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left).as("left in java.io.tmpdir").isEmpty();
        }
        for (String name : List.of("compare.png", "compare.csv", "compare-runs.csv")) {
            assertThat(Files.readAllBytes(out.resolve(name))).as(name).isEqualTo(previous);
        }
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files).as("in --out").hasSize(3);
        }
    }

    private static org.assertj.core.data.Offset<Double> within(double offset) {
        return org.assertj.core.data.Offset.offset(offset);
    }

    /** A simple CSV (no quoting) as one map per row, keyed by the header. */
    private static List<Map<String, String>> csv(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String[] header = lines.get(0).split(",", -1);
        return lines.subList(1, lines.size()).stream()
                .map(line -> {
                    String[] cells = line.split(",", -1);
                    assertThat(cells).as(line).hasSameSizeAs(header);
                    Map<String, String> row = new HashMap<>();
                    for (int i = 0; i < header.length; i++) {
                        row.put(header[i], cells[i]);
                    }
                    return row;
                })
                .toList();
    }
}
