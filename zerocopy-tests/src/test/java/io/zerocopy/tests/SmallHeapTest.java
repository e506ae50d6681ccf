package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transfers of more than 4 GiB in a JVM with a 64 MiB heap ({@link SmallHeapMain}, started from
 * this JVM's own {@code java} with the test class path): nothing the library holds grows with the
 * size of the transfer, whichever strategy runs. Tagged slow: three 4 GiB transfers, about 17 s.
 */
@Tag("slow")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SmallHeapTest {
    private static final long SEED = Seeds.announce(SmallHeapTest.class);

    @TempDir
    Path dir;

    @Test
    void copy_beyondFourGigabytesWithSixtyFourMegabytesOfHeap() throws Exception {
        String printed = ChildJvm.run(
                dir,
                List.of("-Xmx64m"),
                SmallHeapMain.class,
                Duration.ofMinutes(4),
                dir.toString(),
                Long.toString(SEED));

        List<String> lines =
                printed.lines().filter(line -> line.startsWith("ok ")).toList();
        assertThat(lines).as(printed).hasSize(3);
        for (String line : lines) {
            long maxHeap = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            assertThat(maxHeap).as("the child's max heap").isLessThanOrEqualTo(64L << 20);
        }
    }
}
