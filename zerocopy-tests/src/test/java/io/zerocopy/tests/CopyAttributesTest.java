package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copy(Path, Path, COPY_ATTRIBUTES)} by a process that may not give a file away, of files
 * that belong to another user: it must leave what {@code Files.copy} leaves. That skips the
 * permissions when it cannot set the owner (the copy keeps the source's permissions less the umask)
 * and sets the times on a file its owner may not read. Root runs the copies in a child JVM without
 * the powers to give files away or to pass permission checks ({@code setpriv}), under a umask of
 * 077 that the source's permissions exceed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CopyAttributesTest {
    /** A user and group that are not the child's. */
    private static final int OTHER_UID = 1234;

    private static final int OTHER_GID = 2345;

    @TempDir
    Path dir;

    @Test
    void copyAttributes_ofAnotherUsersFiles_withoutRootsPowers_leavesWhatFilesCopyLeaves() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root may give the sources away");
        Path files = Files.createDirectory(dir.resolve("files"));
        Files.setPosixFilePermissions(files, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> names = List.of("rw-rw-rw-", "rwxr-x---", "------r--", "-w-------", "r--r--r--");
        for (String mode : names) {
            Path source = Files.writeString(files.resolve(mode), "the bytes of " + mode);
            Files.setAttribute(source, "unix:uid", OTHER_UID);
            Files.setAttribute(source, "unix:gid", OTHER_GID);
            Files.setPosixFilePermissions(source, PosixFilePermissions.fromString(mode));
            Files.setLastModifiedTime(source, FileTime.from(Instant.parse("2020-01-02T03:04:05Z")));
        }
        List<String> launcher = List.of(
                "sh",
                "-c",
                "umask 077 && exec \"$@\"",
                "sh",
                "setpriv",
                "--bounding-set=-chown,-fowner,-dac_override,-dac_read_search");
        List<String> args = new ArrayList<>(List.of(files.toString()));
        args.addAll(names);

        String printed = ChildJvm.run(
                dir,
                launcher,
                List.of(),
                CopyAttributesMain.class,
                Duration.ofSeconds(100),
                args.toArray(String[]::new));

        List<String> lines = printed.lines().filter(l -> l.startsWith("file ")).toList();
        assertThat(lines).as(printed).hasSize(names.size()).allMatch(l -> l.endsWith(" same"));
    }

    /**
     * A source the process may not read fails the copy before the target it would replace is
     * deleted, as JDK 25's {@code Files.copy} fails (JDK 17's deletes the target first).
     */
    @Test
    void replaceExisting_withASourceItMayNotRead_keepsTheTarget() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root may take its powers away");
        Path source = Files.writeString(dir.resolve("secret"), "not to be read");
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("---------"));
        Path target = Files.writeString(dir.resolve("precious"), "kept");

        String printed = ChildJvm.run(
                dir,
                List.of("setpriv", "--bounding-set=-dac_override,-dac_read_search"),
                List.of(),
                UnreadableSourceMain.class,
                Duration.ofSeconds(100),
                source.toString(),
                target.toString());

        assertThat(printed).contains("failed java.nio.file.AccessDeniedException", "target kept");
    }
}
