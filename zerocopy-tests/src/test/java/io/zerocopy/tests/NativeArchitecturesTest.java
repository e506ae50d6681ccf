package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native path's promises on other architectures than this machine's ({@link NativePathRun}),
 * each run by Debian's OpenJDK 25 for it under qemu-user 10 ({@code scripts/foreign-jdk.sh}
 * unpacks both). qemu hands each kernel call to this kernel translated from that architecture's
 * numbers and layouts, so a wrong number is caught as on the hardware: on AArch64 an
 * {@code O_NOFOLLOW} of x86-64's value is {@code O_LARGEFILE} and follows the link. On AArch64 the
 * native path must keep every promise; on RISC-V, which has no table of kernel numbers, every file
 * must go the JDK's way, though the JVM has the native flags. qemu fills one of {@code SO_MEMINFO}'s
 * counters, so on AArch64 a file above 8 KiB reaches a socket by the JDK's {@code sendfile}, which
 * the run checks like any other entry.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class NativeArchitecturesTest {
    private static final long SEED = Seeds.announce(NativeArchitecturesTest.class);

    private static final String SCRIPT = "scripts/foreign-jdk.sh";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"arm64", "riscv64"})
    void everyPath_opensTheFileTheJdkOpens(String arch) throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "the native path is Linux's");
        String java = foreignJava(arch);
        String printed =
                NativePathRun.run(Files.createDirectory(dir.resolve("run")), List.of(java), "C.UTF-8", SEED, 480);
        assertThat(printed)
                .as("the child ran on %s", arch)
                .contains("os.arch " + (arch.equals("arm64") ? "aarch64" : arch));
        NativePathRun.assertTheJdksFilesEverywhere(printed);
        if (arch.equals("arm64")) {
            NativePathRun.assertOpenedNatively(printed);
        } else {
            assertThat(printed).as("no table, no native open").doesNotContain(" natively ");
        }
    }

    /**
     * The launcher of the JDK for {@code arch} that {@value #SCRIPT} (found from the working
     * directory up) makes; the test is skipped where it cannot be made here (exit 3: no network),
     * saying why.
     */
    private String foreignJava(String arch) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve(SCRIPT))) {
            root = root.getParent();
        }
        assertThat(root).as("the repository root holding " + SCRIPT).isNotNull();
        Path err = dir.resolve("foreign-jdk.err");
        Process p = new ProcessBuilder("bash", root.resolve(SCRIPT).toString(), arch)
                .redirectError(err.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String why = Files.readString(err);
        assumeTrue(p.exitValue() != 3, why);
        assertThat(p.exitValue()).as(why).isZero();
        return out;
    }
}
