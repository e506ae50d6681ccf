package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.examples.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code http-server} on the examples' command line: its options, its output, and stopping it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerCommandTest {

    @TempDir
    Path dir;

    /** The examples' command line with captured output, and its http-server command. */
    private static final class Run {
        final CommandLine commandLine = Main.commandLine();
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final HttpServerCommand command =
                commandLine.getSubcommands().get("http-server").getCommand();

        Run() {
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(err, true));
        }

        int exec(String... args) {
            return commandLine.execute(args);
        }

        String out() {
            synchronized (out.getBuffer()) {
                return out.toString();
            }
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--engine fibers             | --engine: fibers",
                "--idle-timeout 0            | --idle-timeout: 0.0",
                "--idle-timeout 1e-12        | --idle-timeout: 1.0E-12 (expected: 0.001 to 86400 seconds)",
                "--idle-timeout 86401        | --idle-timeout: 86401.0",
                "--max-connections 0         | --max-connections: 0",
                "--port 70000                | --port: 70000",
                "--strategy warp             | --strategy",
                "--bind no.such.host.invalid | --bind",
                "--open-file-cache -1        | --open-file-cache: -1",
                "--open-file-cache-valid -2  | --open-file-cache-valid: -2.0",
            })
    void badOption_isAUsageErrorNamingIt(String option, String message) throws Exception {
        Run run = new Run();
        String[] args = ("http-server --root " + dir + " " + option).split(" ");
        assertThat(run.exec(args)).isEqualTo(2);
        assertThat(run.err.toString()).contains(message).doesNotContain("Exception");
    }

    /**
     * A strategy the library has but cannot send a file to a socket with on this JVM
     * ({@code transferFrom} writes into files only; {@code splice} and {@code native} need Java 22)
     * is refused at start, naming those that can, rather than failing every body later. A server
     * that starts anyway is stopped, so that the test fails rather than waits.
     */
    @ParameterizedTest
    @CsvSource({"transferFrom", "splice"})
    void strategyThatCannotSendAFileToASocket_isAUsageErrorNamingThoseThatCan(String strategy) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                !strategy.equals("splice") || Runtime.version().feature() < 22, "splice sends files on Java 22+");
        Run run = new Run();
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                () -> run.exec("http-server", "--root", dir.toString(), "--port", "0", "--strategy", strategy));
        run.command.started.thenRun(run.command::stop);
        assertThat(exit.get(30, TimeUnit.SECONDS)).as(run.err.toString()).isEqualTo(2);
        assertThat(run.err.toString())
                .contains("--strategy: " + strategy + " cannot send a file to a socket on this JVM")
                .contains("auto, transferTo, ")
                .contains("buffered")
                .contains("mmap");
    }

    @Test
    void missingRoot_isAUsageError() {
        Run run = new Run();
        assertThat(run.exec("http-server", "--root", dir.resolve("none").toString()))
                .isEqualTo(2);
        assertThat(run.err.toString()).contains("--root: not a directory");
    }

    @Test
    void portInUse_failsWithTheAddress() throws Exception {
        try (ServerSocketChannel taken = ServerSocketChannel.open()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            Run run = new Run();
            assertThat(run.exec("http-server", "--root", dir.toString(), "--port", String.valueOf(port)))
                    .isEqualTo(1);
            assertThat(run.err.toString()).contains("cannot listen on 127.0.0.1:" + port);
        }
    }

    @ParameterizedTest
    @CsvSource({"threads", "event-loop"})
    void serves_logs_stops(String engine) throws Exception {
        Files.writeString(dir.resolve("hello.txt"), "hello\n");
        Run run = new Run();
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run.exec(
                "http-server",
                "--root",
                dir.toString(),
                "--port",
                "0",
                "--engine",
                engine,
                "--access-log",
                "--strategy",
                "transferTo"));
        InetSocketAddress address = run.command.started.get(30, TimeUnit.SECONDS);
        try (RawClient client = new RawClient(address)) {
            assertThat(client.get("/hello.txt").text()).isEqualTo("hello\n");
        }
        run.command.stop();
        assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
        assertThat(run.out())
                .contains("http-server: serving " + dir.toRealPath() + " on http://127.0.0.1:" + address.getPort()
                        + "/ (engine " + engine)
                .contains("\"GET /hello.txt HTTP/1.1\" 200 6 ")
                .contains("http-server: stopped");
    }

    /**
     * A trimmed runtime, as jlink makes for a container: only {@code java.base}, so neither {@code
     * java.management} nor {@code jdk.management} is there to report the descriptor limit.
     */
    @ParameterizedTest
    @CsvSource({"threads", "event-loop"})
    void serves_onARuntimeOfJavaBaseAlone(String engine) throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("hello.txt"), "hello\n");
        try (ServerProcess server = ServerProcess.start(
                        List.of(),
                        List.of("--limit-modules", "java.base"),
                        dir.resolve("stderr.txt"),
                        "--root",
                        root.toString(),
                        "--engine",
                        engine);
                RawClient client = new RawClient(server.address())) {
            assertThat(client.get("/hello.txt").text()).as(server.stderr()).isEqualTo("hello\n");
        }
    }
}
