package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code demo}'s option errors, and what it leaves when interrupted. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DemoCommandTest {

    /** Sizes whose bytes do not fit a long: they used to wrap to 0 or less, send nothing and say ok. */
    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "8796093022208", "17592186044416", "9007199254740991"})
    void demo_sizeOutOfRange_isAUsageErrorNamingTheOption(String mib) {
        Cli.Run run = Cli.exec("demo", "--size-mib", mib);
        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("--size-mib: " + mib + " (expected: ");
    }

    /**
     * Ctrl-C (SIGINT) while {@code demo} runs, in a child JVM: its generated file goes with it. The
     * file is large enough that the signal, sent once the file is made and the first send starts,
     * comes long before the end.
     */
    @Test
    void demo_interrupted_deletesItsGeneratedFile(@TempDir Path tmp) throws Exception {
        try (ChildMain child =
                ChildMain.start(List.of(), List.of("-Djava.io.tmpdir=" + tmp), "demo", "--size-mib", "512")) {
            child.awaitLine("zerocopy demo: ", 60);
            child.signal("INT");
            Cli.Run run = child.await(60);
            assertThat(run.exit()).as(run.out()).isEqualTo(130);
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left).as("left in java.io.tmpdir").isEmpty();
        }
    }
}
