package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every number in {@link LinuxAbi}, checked against that architecture's own kernel headers: each
 * entry's C expression is compiled by the architecture's GNU C compiler ({@code gcc} on x86-64,
 * {@code aarch64-linux-gnu-gcc} from Debian's cross tool chain) to assembly, whose data directives
 * give the values. Nothing is run, so no emulator is needed. {@code scripts/abi-probe.sh} installs
 * the compilers where they are missing (as root), as CI does.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LinuxAbiHeadersTest {
    private static final Pattern DATUM =
            Pattern.compile("^v(\\d+):\\s*\\n\\s*\\.(quad|xword|zero)\\s+(-?\\d+)", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"x86_64", "aarch64"})
    void everyValue_isWhatTheArchitecturesHeadersSay(String arch) throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "the kernel headers are Linux's");
        LinuxAbi abi = LinuxAbi.of(arch);
        List<String> expressions = new ArrayList<>(abi.values().keySet());
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <linux/fcntl.h>\n#include <linux/stat.h>\n"
                + "#include <asm/unistd.h>\n#include <asm/stat.h>\n#include <asm/errno.h>\n#include <asm/socket.h>\n"
                + "#include <asm/poll.h>\n#include <linux/sock_diag.h>\n#include <linux/openat2.h>\n#include <linux/in.h>\n"
                + "#include <linux/tcp.h>\n#include <linux/sockios.h>\n");
        for (int i = 0; i < expressions.size(); i++) {
            c.append("long v")
                    .append(i)
                    .append(" = (long)(")
                    .append(expressions.get(i))
                    .append(");\n");
        }
        Path source = Files.writeString(dir.resolve("abi.c"), c.toString());
        String assembly = run(dir, "scripts/abi-probe.sh", arch, source.toString());

        Map<Integer, Long> compiled = new HashMap<>();
        Matcher m = DATUM.matcher(assembly);
        while (m.find()) {
            // a zero goes to .bss as ".zero 8", the size of the room rather than a value
            compiled.put(Integer.parseInt(m.group(1)), m.group(2).equals("zero") ? 0L : Long.parseLong(m.group(3)));
        }
        assertThat(compiled).as(assembly).hasSize(expressions.size());
        for (int i = 0; i < expressions.size(); i++) {
            assertThat(abi.get(expressions.get(i)))
                    .as("%s on %s", expressions.get(i), arch)
                    .isEqualTo(compiled.get(i));
        }
    }

    /** {@code LinuxFile.Stat} copies a {@code struct stat} into 64-bit words and reads each field from its word. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"x86_64", "aarch64"})
    void statFields_lieWhereTheWordsReadThem(String arch) {
        LinuxAbi abi = LinuxAbi.of(arch);
        assertThat(abi.get("sizeof(struct stat)") % 8)
                .as("sizeof(struct stat) on %s", arch)
                .isZero();
        for (String field :
                List.of("st_dev", "st_ino", "st_size", "st_atime", "st_atime_nsec", "st_mtime", "st_mtime_nsec")) {
            String expression = "offsetof(struct stat, " + field + ")";
            assertThat(abi.get(expression) % 8).as("%s on %s", expression, arch).isZero();
        }
        assertThat(abi.get("offsetof(struct stat, st_mode)") % 4)
                .as("st_mode, a 32-bit int, on %s", arch)
                .isZero();
    }

    @Test
    void theArchitecturesDiffer_whereTheIssueFoundThem() {
        assertThat(LinuxAbi.of("amd64").get("O_NOFOLLOW")).isEqualTo(0400000);
        assertThat(LinuxAbi.of("aarch64").get("O_NOFOLLOW")).isEqualTo(0100000);
        assertThat(LinuxAbi.of("riscv64"))
                .as("an architecture not checked has no table")
                .isNull();
        assertThat(LinuxAbi.architectures()).containsExactlyInAnyOrder("x86_64", "aarch64");
    }

    /** Runs the repository's script from its root (two levels above this module's directory, or this one). */
    private static String run(Path work, String script, String... args) throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve(script))) {
            root = root.getParent();
        }
        assertThat(root).as("the repository root holding " + script).isNotNull();
        List<String> command =
                new ArrayList<>(List.of("bash", root.resolve(script).toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(work.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(8, TimeUnit.MINUTES)).isTrue();
        assumeTrue(p.exitValue() != 3, "no compiler for this architecture and no way to install one: " + err);
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }
}
