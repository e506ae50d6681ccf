package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library in a JVM whose direct memory the application holds ({@link DirectMemoryShortMain}):
 * short of it at the library's first use, the library still works once memory is free again
 * (before, a class failed to initialise and every later call threw {@code NoClassDefFoundError});
 * short of it later, with native access, a file is sent the JDK way rather than failing with the
 * {@code OutOfMemoryError} of the memory its native calls need.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DirectMemoryShortTest {
    private static final long SEED = Seeds.announce(DirectMemoryShortTest.class);

    /** Why a run short of direct memory on a new thread says nothing of the library on JDK 17. */
    private static final String JDK_17_NEEDS_DIRECT_MEMORY =
            "JDK 17's own reads and writes of heap buffers take a direct buffer per thread; Java 25's need none";

    @TempDir
    Path dir;

    @Test
    void shortAtFirstUse_theLibraryWorksOnceMemoryIsFree() throws Exception {
        assertEveryCopyOk(runChild(List.of("-XX:MaxDirectMemorySize=1m"), "at-first-use"));
    }

    @Test
    void shortAfterFirstUse_newThreadsStillCopy() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, JDK_17_NEEDS_DIRECT_MEMORY);
        assertEveryCopyOk(runChild(List.of("-XX:MaxDirectMemorySize=1m"), "after-first-use"));
    }

    @Test
    void noDirectMemoryAtAll_copiesAsTheJdkDoes() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, JDK_17_NEEDS_DIRECT_MEMORY);
        assertEveryCopyOk(runChild(List.of("-XX:MaxDirectMemorySize=0"), "none"));
    }

    private static void assertEveryCopyOk(String printed) {
        List<String> results =
                printed.lines().filter(line -> line.startsWith("result ")).toList();
        assertThat(results).as(printed).hasSize(3).allSatisfy(r -> assertThat(r).isEqualTo("result ok"));
    }

    /** Runs the child with native access where this JVM has it (the splice execution), so both paths are tried. */
    private String runChild(List<String> limit, String mode) throws Exception {
        List<String> options = new ArrayList<>(limit);
        if (ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("--enable-native-access"))) {
            options.addAll(
                    List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED"));
        }
        String printed = ChildJvm.run(
                dir,
                options,
                DirectMemoryShortMain.class,
                Duration.ofMinutes(2),
                dir.toString(),
                Long.toString(SEED),
                mode);
        assertThat(printed).contains("done");
        return printed;
    }
}
