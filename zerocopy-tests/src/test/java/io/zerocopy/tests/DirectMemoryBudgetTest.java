package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's direct memory budget, in child JVMs ({@link DirectMemoryMain}) with a small direct
 * memory limit: 64 transfers of 1 MiB at once all succeed and arrive whole, with no
 * {@code OutOfMemoryError}; with {@code transferTo} excluded (which takes no buffer, and is the
 * default to a peer on this host), while the budget lasts a transfer to this host gets the buffered choice,
 * once it is spent mapped windows, on platform and virtual threads alike, and the reasons say which;
 * with a budget of 0 no transfer is ever given a direct buffer, and every reason says so.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DirectMemoryBudgetTest {
    private static final long SEED = Seeds.announce(DirectMemoryBudgetTest.class);

    /** A file to a socket on this host goes by sendfile, which takes no buffer; these runs need the rows that do. */
    private static final String WITHOUT_SENDFILE = "-D" + TransferOptions.EXCLUDE_PROPERTY + "=transferTo";

    @TempDir
    Path dir;

    @Test
    void sixtyFourTransfersInFourMegabytesOfDirectMemory_allArriveAndBothChoicesAppear() throws Exception {
        List<String> results = runChild(List.of("-XX:MaxDirectMemorySize=4m", WITHOUT_SENDFILE), "file-to-sockets");

        List<String> platform =
                results.stream().filter(r -> r.startsWith("platform ")).toList();
        assertThat(platform).as("platform-thread transfers").hasSize(DirectMemoryMain.TRANSFERS);
        assertThat(platform)
                .as("every transfer moved 1 MiB")
                .allSatisfy(r -> assertThat(r).contains(" " + DirectMemoryMain.SIZE + " "));
        // A quarter of 4 MiB is 1 MiB: four 256 KiB buffers, then the budget is spent.
        assertThat(platform)
                .as("buffered while the budget lasts")
                .anySatisfy(r -> assertThat(r).startsWith("platform buffered ").contains("socket on this host"));
        assertThat(platform)
                .as("mapped windows once the budget is spent")
                .anySatisfy(r -> assertThat(r)
                        .startsWith("platform mmap ")
                        .contains("budget")
                        .contains("is spent")
                        .contains(TransferOptions.DIRECT_MEMORY_PROPERTY));
        if (Runtime.version().feature() >= 21) {
            List<String> virtual =
                    results.stream().filter(r -> r.startsWith("virtual ")).toList();
            assertThat(virtual)
                    .as("virtual-thread transfers")
                    .hasSize(DirectMemoryMain.TRANSFERS)
                    // these start without holding each other back, so buffers may be handed on in time
                    // for every one: mapped windows are allowed, not required
                    .allSatisfy(r -> assertThat(r).matches("virtual (buffered|mmap) .*"));
        }
    }

    /**
     * A runtime without {@code java.management} (a jlink image of an application that requires the
     * library: it requires that module only statically), where the limit is read from the launch's
     * own arguments.
     */
    @Test
    void withoutJavaManagement_theLimitIsStillRead_allArrive() throws Exception {
        List<String> results = runChild(
                List.of("--limit-modules", "java.base", "-XX:MaxDirectMemorySize=4m", WITHOUT_SENDFILE),
                "file-to-sockets");

        assertThat(results.stream().filter(r -> r.startsWith("platform ")))
                .as("platform-thread transfers, each 1 MiB")
                .hasSize(DirectMemoryMain.TRANSFERS)
                .allSatisfy(r -> assertThat(r).contains(" " + DirectMemoryMain.SIZE + " "));
    }

    /**
     * A budget above what the JVM lets the library have (set too high, or the memory taken by
     * something else in the process): a buffer the JDK refuses is a spent budget, not a failure.
     */
    @Test
    void budgetAboveTheJvmsLimit_theRefusedBufferIsASpentBudget_allArrive() throws Exception {
        String printed = runChildPrinted(
                List.of(
                        "-XX:MaxDirectMemorySize=2m",
                        "-D" + TransferOptions.DIRECT_MEMORY_PROPERTY + "=64m",
                        WITHOUT_SENDFILE),
                "file-to-sockets");
        List<String> results = results(printed);
        assertThat(printed.split("The JVM refused a direct buffer", -1))
                .as("one warning, however many transfers were refused at once")
                .hasSize(2);

        List<String> platform =
                results.stream().filter(r -> r.startsWith("platform ")).toList();
        assertThat(platform)
                .as("platform-thread transfers, each 1 MiB")
                .hasSize(DirectMemoryMain.TRANSFERS)
                .allSatisfy(r -> assertThat(r).contains(" " + DirectMemoryMain.SIZE + " "));
        assertThat(platform)
                .as("mapped windows once the JVM refused a buffer")
                .anySatisfy(r -> assertThat(r).startsWith("platform mmap ").contains("is spent"));
    }

    @Test
    void budgetOfZero_neverADirectBuffer() throws Exception {
        List<String> results = runChild(
                List.of("-D" + TransferOptions.DIRECT_MEMORY_PROPERTY + "=0", WITHOUT_SENDFILE), "other-kinds");

        assertThat(results).as("transfers").hasSizeGreaterThanOrEqualTo(DirectMemoryMain.TRANSFERS + 4);
        assertThat(results)
                .as("every reason names the spent budget")
                .allSatisfy(r -> assertThat(r).contains("budget (0 bytes").contains("is spent"));
        assertThat(results)
                .as("a buffer-taking transfer fell back to a heap buffer")
                .anySatisfy(r -> assertThat(r).contains("buffered").contains("a heap buffer"));
    }

    /** Runs {@link DirectMemoryMain} in a child JVM; returns its result lines without the "result " prefix. */
    private List<String> runChild(List<String> jvmOptions, String mode) throws Exception {
        return results(runChildPrinted(jvmOptions, mode));
    }

    /** Runs {@link DirectMemoryMain} in a child JVM; returns all it printed. */
    private String runChildPrinted(List<String> jvmOptions, String mode) throws Exception {
        String printed = ChildJvm.run(
                dir,
                jvmOptions,
                DirectMemoryMain.class,
                Duration.ofMinutes(2),
                dir.toString(),
                Long.toString(SEED),
                mode);
        assertThat(printed).doesNotContain("OutOfMemoryError").contains("done");
        return printed;
    }

    private static List<String> results(String printed) {
        return printed.lines()
                .filter(line -> line.startsWith("result "))
                .map(line -> line.substring(7))
                .toList();
    }
}
