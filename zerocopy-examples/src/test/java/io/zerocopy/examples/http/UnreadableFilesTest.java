package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code http-server} as a server runs, without the power to read every file: a file it may not read
 * and a file in a directory it may not search are answered 403, and the readable file beside them
 * 200, on both engines, through the JDK's open and (with the flags a user adds, on Java 22+) the
 * native one. A child of root runs without {@code CAP_DAC_OVERRIDE} and {@code CAP_DAC_READ_SEARCH}
 * ({@code setpriv}), so that CI, which runs as root, sees the refusals that the in-process tests can
 * only skip.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UnreadableFilesTest {
    private static final String READABLE = "readable\n";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, native flags {1}")
    @CsvSource({"threads, false", "threads, true", "event-loop, false", "event-loop, true"})
    void unreadableFileOrDirectory_403_readableBeside_200(String engine, boolean nativeFlags) throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("readable.txt"), READABLE);
        Path file = Files.writeString(root.resolve("locked.txt"), "locked\n");
        Path directory = Files.createDirectory(root.resolve("locked"));
        Files.writeString(directory.resolve("inner.txt"), "inner\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("---------"));

        List<String> launcher = new ArrayList<>();
        if (Integer.valueOf(0).equals(Files.getAttribute(root, "unix:uid"))) {
            launcher.addAll(List.of("setpriv", "--bounding-set=-dac_override,-dac_read_search"));
        }
        List<String> jvmArgs = nativeFlags
                ? List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED")
                : List.of();
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        try (ServerProcess server = ServerProcess.start(
                launcher, jvmArgs, dir.resolve("stderr.txt"), "--root", root.toString(), "--engine", engine)) {
            URI base = URI.create("http://127.0.0.1:" + server.address().getPort());
            for (String target : List.of("/locked.txt", "/locked/inner.txt", "/readable.txt")) {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(base.resolve(target))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (target.equals("/readable.txt")) {
                    assertThat(response.statusCode()).as(target).isEqualTo(200);
                    assertThat(response.body()).isEqualTo(READABLE);
                } else {
                    assertThat(response.statusCode())
                            .as("%s; stderr: %s", target, server.stderr())
                            .isEqualTo(403);
                }
            }
        } finally {
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
