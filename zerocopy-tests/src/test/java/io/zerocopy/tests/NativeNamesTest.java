package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The file a name names, where the JDK decided how to resolve and encode it at its start and the
 * world changed since, or the program named files another way: {@code OpenFile.open} and
 * {@code Transfers.copy(Path, SocketChannel)} read what {@code Files.readAllBytes} reads. Each
 * case runs {@link NativeNamesMain} in a JVM of its own with native access, as the library decides
 * once per JVM at its first native open. This module's native-access run.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NativeNamesTest {
    @TempDir
    Path tempDir;

    /**
     * renamed: the working directory renamed, another made at its name, before the first native
     * open; chdir-allowed: the same after it, with {@code sun.nio.fs.chdirAllowed}; user-dir-link:
     * {@code user.dir} a link to the working directory, then re-pointed; jnu-property:
     * {@code sun.jnu.encoding} set by the program; provider: a default file system provider of the
     * program's own ({@link RemappingProvider}) that reads another file.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"renamed", "chdir-allowed", "user-dir-link", "jnu-property", "provider"})
    void everyName_readsTheFileTheJdkReads(String name) throws Exception {
        Path dir = tempDir.toRealPath(); // user.dir's bytes must be the working directory's
        Path work = dir;
        List<String> options = new ArrayList<>();
        List<String> jdkReads;
        switch (name) {
            case "renamed", "chdir-allowed" -> {
                work = Files.createDirectory(dir.resolve("work"));
                Files.writeString(work.resolve("f.txt"), "started-in");
                if (name.equals("chdir-allowed")) {
                    options.add("-Dsun.nio.fs.chdirAllowed=true");
                    jdkReads = List.of("jdk before-rename 'started-in'", "jdk after-rename 'made-at-the-old-name'");
                } else {
                    jdkReads = List.of("jdk after-rename 'started-in'");
                }
            }
            case "user-dir-link" -> {
                work = Files.createDirectory(dir.resolve("a"));
                Files.writeString(work.resolve("f.txt"), "a");
                Files.writeString(Files.createDirectory(dir.resolve("b")).resolve("f.txt"), "b");
                Files.createSymbolicLink(dir.resolve("link"), work);
                options.add("-Duser.dir=" + dir.resolve("link"));
                jdkReads = List.of("jdk link-to-a 'a'", "jdk link-to-b 'b'");
            }
            case "jnu-property" -> {
                // the shell makes names from raw bytes: UTF-8's and Latin-1's for one text
                NativePathRun.shell(
                        Files.createDirectory(dir.resolve("names")),
                        "printf utf8 > \"$(printf 'caf\\303\\251.txt')\"; printf latin1 > \"$(printf 'caf\\351.txt')\"");
                jdkReads = List.of("jdk cafe 'utf8'");
            }
            case "provider" -> {
                Files.writeString(Files.createDirectory(dir.resolve("from")).resolve("f.txt"), "remapped-from");
                Files.writeString(Files.createDirectory(dir.resolve("to")).resolve("f.txt"), "remapped-to");
                options.add("-Djava.nio.file.spi.DefaultFileSystemProvider=" + RemappingProvider.class.getName());
                options.add("-Dzerocopy.test.remapFrom=" + dir.resolve("from"));
                options.add("-Dzerocopy.test.remapTo=" + dir.resolve("to"));
                jdkReads = List.of("jdk remapped 'remapped-to'");
            }
            default -> throw new IllegalArgumentException(name);
        }

        String printed = run(name, dir, work, options);

        assertThat(printed.lines().filter(l -> l.startsWith("jdk ")).toList())
                .as(printed)
                .isEqualTo(jdkReads);
        List<String> checks =
                printed.lines().filter(l -> l.startsWith("check ")).toList();
        assertThat(checks).as(printed).hasSize(2 * jdkReads.size());
        assertThat(checks).as(printed).allMatch(l -> l.endsWith(" same"));
        if (name.equals("provider")) {
            assertThat(printed).contains("provider " + RemappingProvider.class.getName());
        }
    }

    /** Runs {@link NativeNamesMain} on {@code name} in {@code work} under {@code LC_ALL=C.UTF-8}; what it printed. */
    private static String run(String name, Path dir, Path work, List<String> options) throws Exception {
        List<String> jvmOptions = new ArrayList<>(
                List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED"));
        jvmOptions.addAll(options);
        return ChildJvm.run(
                dir,
                List.of(),
                jvmOptions,
                NativeNamesMain.class,
                Duration.ofSeconds(60),
                child -> {
                    child.directory(work.toFile());
                    child.environment().remove("LANG");
                    child.environment().remove("LC_CTYPE");
                    child.environment().put("LC_ALL", "C.UTF-8");
                },
                name,
                dir.toString());
    }
}
