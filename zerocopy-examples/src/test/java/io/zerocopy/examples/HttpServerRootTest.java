package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-server --root} that the server may not read is a bad command line (exit 2), as an
 * unreadable input file is for every program (docs/examples.md), said before anything starts.
 * Before, the server failed to start with exit 1. As a user without root's power to read every
 * file, in a child JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServerRootTest {
    @TempDir
    Path dir;

    @Test
    void unreadableRoot_isAUsageErrorSayingAccessDenied() throws Exception {
        Path root = Files.createDirectory(dir.resolve("site"));
        Files.writeString(root.resolve("index.html"), "hello");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("--x--x--x")); // searchable, not readable
        try {
            Cli.Run run = ChildMain.run(
                    ChildMain.withoutPowerToReadAll(dir),
                    List.of(),
                    "http-server",
                    "--root",
                    root.toString(),
                    "--port",
                    "0");
            assertThat(run.exit()).as(run.out()).isEqualTo(2);
            assertThat(run.out()).contains("--root: access denied: " + root);
        } finally {
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
