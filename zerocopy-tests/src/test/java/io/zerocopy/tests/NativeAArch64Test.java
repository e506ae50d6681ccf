package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native path on Linux AArch64, where its flags, system call numbers and {@code struct stat}
 * differ from x86-64's: Debian's arm64 OpenJDK 25 run by qemu-user 10's {@code qemu-aarch64}
 * ({@code scripts/aarch64-jdk.sh} unpacks both), whose kernel calls reach this kernel translated
 * from AArch64's numbers and layouts, so a wrong number is caught as on the hardware: an
 * {@code O_NOFOLLOW} of x86-64's value is AArch64's {@code O_LARGEFILE} and follows the link. qemu
 * fills one of {@code SO_MEMINFO}'s counters, so there a file above 8 KiB reaches a socket by the
 * JDK's {@code sendfile}, which the run checks like any other entry.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class NativeAArch64Test {
    private static final long SEED = Seeds.announce(NativeAArch64Test.class);

    private static final String SCRIPT = "scripts/aarch64-jdk.sh";

    @TempDir
    Path dir;

    @Test
    void everyPath_opensTheFileTheJdkOpens_andALinkAtTheLastStepIsRefused() throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "the native path is Linux's");
        String java = aarch64Java();
        String printed =
                NativePathRun.run(Files.createDirectory(dir.resolve("run")), List.of(java), "C.UTF-8", SEED, 480);
        assertThat(printed).as("the child ran on AArch64").contains("os.arch aarch64");
        NativePathRun.assertTheJdksFilesEverywhere(printed);
    }

    /**
     * The launcher of the AArch64 JDK that {@code scripts/aarch64-jdk.sh} (found from the working
     * directory up) makes; the test is skipped where it cannot be made here (exit 3: not root, no
     * network), saying why.
     */
    private String aarch64Java() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve(SCRIPT))) {
            root = root.getParent();
        }
        assertThat(root).as("the repository root holding " + SCRIPT).isNotNull();
        Path err = dir.resolve("aarch64-jdk.err");
        Process p = new ProcessBuilder("bash", root.resolve(SCRIPT).toString())
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
