package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The programs that run until stopped, in child JVMs stopped as a user stops them: they exit with the
 * JVM's codes for the signal, 130 for SIGINT (Ctrl-C) and 143 for SIGTERM, as Main says, the servers
 * after their last line.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StopSignalsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "traditional-server, INT, 130, traditional-server: listening on, traditional-server: stopped after 0 connections",
        "transferto-server, TERM, 143, transferto-server: listening on, transferto-server: stopped after 0 connections",
        "http-server, INT, 130, http-server: serving, http-server: stopped",
        "http-server, TERM, 143, http-server: serving, http-server: stopped",
        "relay, TERM, 143, relaying, relaying",
    })
    void stoppedBySignal_exitsWithTheSignalsCode(String command, String signal, int exit, String started, String last)
            throws Exception {
        List<String> args = switch (command) {
            case "http-server" -> List.of(command, "--port", "0", "--root", dir.toString());
            case "relay" -> List.of(command, "--listen", "0", "--to", "127.0.0.1:9");
            default -> List.of(command, "--port", "0");
        };
        try (ChildMain child = ChildMain.start(List.of(), List.of(), args.toArray(String[]::new))) {
            child.awaitLine(started, 60);
            child.signal(signal);
            Cli.Run run = child.await(60);
            assertThat(run.exit()).as(run.out()).isEqualTo(exit);
            assertThat(run.out()).contains(last).doesNotContain("Exception");
        }
    }
}
