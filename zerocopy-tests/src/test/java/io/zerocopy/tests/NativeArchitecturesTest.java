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
     * The launcher of the JDK for {@code arch} that {@code scripts/foreign-jdk.sh} makes (from this
     * module's directory, where the build runs its tests); the test is skipped, saying why, where
     * the script cannot fetch it (exit 3).
     */
    private String foreignJava(String arch) throws Exception {
        Path script =
                Path.of("..", "scripts", "foreign-jdk.sh").toAbsolutePath().normalize();
        assertThat(script).as("the script, from this module's directory").exists();
        Path errors = dir.resolve("foreign-jdk.err");
        Process p = new ProcessBuilder("bash", script.toString(), arch)
                .redirectError(errors.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String why = Files.readString(errors);
        assumeTrue(p.exitValue() != 3, why);
        assertThat(p.exitValue()).as(why).isZero();
        return out;
    }
}
