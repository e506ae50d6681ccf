package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.tests.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native file path with its calls' memory out of reach ({@link NativeShortOfMemoryMain}: it
 * counts against {@code -XX:MaxDirectMemorySize}, which the child fills): a close needs none, so
 * a file opened natively is closed whatever memory is left (before, the close made a piece of that
 * memory first, and failed with {@code OutOfMemoryError} with its descriptor left open for good);
 * a path whose name needs more than the memory at hand opens the JDK way instead of failing.
 * This module's native-access run.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NativeShortOfMemoryTest {
    @TempDir
    Path dir;

    @Test
    void closesAndLongNames_needNoMoreMemory() throws Exception {
        assumeTrue(NativeFiles.unavailable() == null, () -> "no native file path here: " + NativeFiles.unavailable());
        String printed = ChildJvm.run(
                dir,
                List.of(
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-exports",
                        "java.base/sun.nio.ch=ALL-UNNAMED",
                        "-XX:MaxDirectMemorySize=4m"),
                NativeShortOfMemoryMain.class,
                Duration.ofMinutes(1),
                dir.toString());
        assertThat(printed).contains("done");
        assertThat(printed.lines().filter(l -> l.startsWith("result ")))
                .as(printed)
                .containsExactly("result ok", "result ok");
    }
}
