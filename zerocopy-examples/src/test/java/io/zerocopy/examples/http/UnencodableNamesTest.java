package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code http-server} in a child JVM under the C locale ({@code LC_ALL=C}), as a service manager
 * may start it: the JVM then encodes file names in ASCII, so a request for {@code café.txt} names
 * no file the server can open. It is a 404 on both engines, beneath the root with the cache of open
 * files and without it, and following links; the connection stays in step for the next request, and
 * nothing goes to standard error. Such a request once got no answer at all, and on the threads
 * engine a stack trace on standard error each time.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UnencodableNamesTest {
    private static final String PLAIN = "plain\n";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "threads,    --open-file-cache=8",
        "threads,    --open-file-cache=0",
        "threads,    --follow-symlinks",
        "event-loop, --open-file-cache=8",
        "event-loop, --open-file-cache=0",
        "event-loop, --follow-symlinks"
    })
    void nameTheFileSystemCannotEncode_404_connectionKept(String engine, String option) throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("plain.txt"), PLAIN);
        try (ServerProcess server = ServerProcess.start(
                        List.of(),
                        Map.of("LC_ALL", "C"),
                        List.of(),
                        dir.resolve("stderr.txt"),
                        "--root",
                        root.toString(),
                        "--engine",
                        engine,
                        option);
                RawClient client = new RawClient(server.address())) {
            for (int i = 0; i < 2; i++) {
                assertThat(client.get("/caf%C3%A9.txt").status())
                        .as("request %d; stderr: %s", i, server.stderr())
                        .isEqualTo(404);
            }
            assertThat(client.get("/plain.txt").text()).isEqualTo(PLAIN);
            assertThat(server.stderr()).doesNotContain("Exception");
        }
    }
}
