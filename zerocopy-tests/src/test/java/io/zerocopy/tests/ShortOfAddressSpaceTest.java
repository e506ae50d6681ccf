package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process short of address space ({@code ulimit -v}), where a mapped window of 64 MiB is refused:
 * a file into a pipe, which goes by mapped windows from 4 MiB, is still sent whole, in smaller
 * windows, as the JDK's own {@code transferTo} sends it. Before, the copy failed at its first
 * window. The child ({@link ShortOfAddressSpaceMain}) runs interpreted with the serial collector,
 * so that neither a compiler nor a collector thread needs address space after its limit is set.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ShortOfAddressSpaceTest {
    private static final long SEED = Seeds.announce(ShortOfAddressSpaceTest.class);

    @TempDir
    Path dir;

    @Test
    void aWindowRefused_smallerWindowsSendTheFile() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "prlimit (util-linux) is needed");
        String printed = ChildJvm.run(
                dir,
                List.of(),
                List.of("-Xint", "-XX:+UseSerialGC", "-Xmx64m"),
                ShortOfAddressSpaceMain.class,
                Duration.ofMinutes(2),
                process -> process.environment().put("MALLOC_ARENA_MAX", "1"),
                dir.toString(),
                Long.toString(SEED),
                "48");
        assertThat(printed).as(printed).contains("result ok");
    }
}
