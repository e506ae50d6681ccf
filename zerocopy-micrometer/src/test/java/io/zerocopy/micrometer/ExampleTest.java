package io.zerocopy.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The usage example of {@link TransferMetrics}'s Javadoc and of docs/observability.md, run here; a
 * second test checks that both show exactly the lines between the markers below, so they cannot
 * drift from code that compiles and works.
 */
class ExampleTest {

    @TempDir
    Path dir;

    @Test
    void example_countsTheCopiedBytes() throws IOException {
        Path source = Files.write(dir.resolve("segment.log"), new byte[123_456]);
        Path target = dir.resolve("segment.copy");

        // example start
        MeterRegistry registry = new SimpleMeterRegistry(); // or the application's registry
        TransferMetrics metrics = new TransferMetrics(registry, Tags.of("service", "media"));
        TransferOptions options = TransferOptions.builder().listener(metrics).build();
        long copied = Transfers.copy(source, target, options);
        double bytes = registry.get("zerocopy.transfers.bytes")
                .tag("outcome", "completed")
                .counter()
                .count();
        // example end

        assertThat(copied).isEqualTo(123_456);
        assertThat(bytes).isEqualTo(123_456);
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
    }

    @Test
    void javadocAndDocs_showTheExampleThatRuns() throws IOException {
        List<String> example = lines(between(
                read("src/test/java/io/zerocopy/micrometer/ExampleTest.java"),
                "// example start\n",
                "        // example end"));
        assertThat(example).hasSize(5);

        String javadoc = read("src/main/java/io/zerocopy/micrometer/TransferMetrics.java");
        List<String> inJavadoc =
                lines(between(javadoc, "<pre>{@code\n", "}</pre>").replaceAll("(?m)^ \\* ?", ""));
        assertThat(inJavadoc).isEqualTo(example);

        List<String> inDocs = lines(between(read("../docs/observability.md"), "```java\n", "```"));
        assertThat(inDocs).isEqualTo(example);
    }

    private static String read(String path) throws IOException {
        return Files.readString(Path.of(path), StandardCharsets.UTF_8);
    }

    private static String between(String text, String start, String end) {
        Matcher m = Pattern.compile(Pattern.quote(start) + "(.*?)" + Pattern.quote(end), Pattern.DOTALL)
                .matcher(text);
        assertThat(m.find())
                .as("a block from %s to %s", start.strip(), end.strip())
                .isTrue();
        return m.group(1);
    }

    /** The block's lines, stripped; a line that continues a call chain ({@code .x()}) joins the one before it. */
    private static List<String> lines(String block) {
        List<String> lines = new ArrayList<>();
        for (String line : block.split("\n")) {
            String l = line.strip();
            if (l.startsWith(".") && !lines.isEmpty()) {
                lines.set(lines.size() - 1, lines.get(lines.size() - 1) + l);
            } else if (!l.isEmpty()) {
                lines.add(l);
            }
        }
        return lines;
    }
}
