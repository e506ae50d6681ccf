package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The server and client programs end to end over 127.0.0.1, checked by the received bytes' CRC32C. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerClientTest {

    /** Not a multiple of any buffer size, so the last chunk is a short one. */
    private static final int SIZE = (3 << 20) + 12345;

    @TempDir
    Path dir;

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of("traditional-server", "traditional-client", List.of(), "buffered with a 4096-byte buffer"),
                Arguments.of("transferto-server", "transferto-client", List.of(), "transferTo (forced)"),
                Arguments.of(
                        "traditional-server",
                        "traditional-client",
                        List.of("--strategy", "auto", "--nodelay"),
                        // the library's pick, with its reason
                        "transferTo (sendfile(2) from a file to a SOCKET, to a peer on this host"),
                Arguments.of("transferto-server", "transferto-client", List.of("--strategy", "mmap"), "mmap (forced)"));
    }

    @ParameterizedTest(name = "{0} + {1} {2}")
    @MethodSource("pairs")
    void serverAndClient_deliverTheFileExactly(String serverName, String clientName, List<String> extra, String method)
            throws Exception {
        byte[] content = TestData.bytes(SIZE, 17);
        Path file = TestData.file(dir, "payload.bin", content);
        Cli server = new Cli();
        ServerCommand command = server.command(serverName);
        CompletableFuture<Cli.Run> serverRun =
                CompletableFuture.supplyAsync(() -> server.run(serverName, "--port", "0", "--connections", "1"));
        int port = command.started.get(30, TimeUnit.SECONDS).getPort();

        List<String> args =
                new ArrayList<>(List.of(clientName, "--port", String.valueOf(port), "--file", file.toString()));
        args.addAll(extra);
        Cli.Run client = Cli.exec(args.toArray(String[]::new));
        Cli.Run served = serverRun.get(30, TimeUnit.SECONDS);

        assertThat(client.exit()).as(client.err()).isZero();
        assertThat(client.out()).contains("sent " + SIZE + " bytes", "by " + method);
        assertThat(served.exit()).as(served.err()).isZero();
        assertThat(served.out())
                .contains(serverName + ": listening on 127.0.0.1:" + port)
                .containsPattern("connection 1 from .*: " + SIZE + " bytes in .* crc32c " + TestData.crcHex(content))
                .contains("stopped after 1 connection (0 failed), " + SIZE + " bytes received in total");
    }

    @Test
    void server_clientResetMidway_othersStillComplete() throws Exception {
        byte[] content = TestData.bytes(SIZE, 18);
        Path file = TestData.file(dir, "payload.bin", content);
        BlockingQueue<Server.Connection> ended = new LinkedBlockingQueue<>();
        try (Server server = new Server(InetAddress.getLoopbackAddress(), 0, true, ended::add)) {
            int port = server.start();
            try (SocketChannel quitter =
                    SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                ByteBuffer part = ByteBuffer.wrap(content, 0, 65536);
                while (part.hasRemaining()) {
                    quitter.write(part);
                }
                // the quitter is still connected while a whole file goes through another connection
                Cli.Run client =
                        Cli.exec("transferto-client", "--port", String.valueOf(port), "--file", file.toString());
                assertThat(client.exit()).as(client.err()).isZero();
                Server.Connection whole = ended.poll(30, TimeUnit.SECONDS);
                assertThat(whole).isNotNull();
                assertThat(whole.complete()).isTrue();
                assertThat(whole.bytes()).isEqualTo(SIZE);
                assertThat(whole.crc32c()).isEqualTo(TestData.crc32c(content));

                // an abortive close: the server sees a reset, not end of stream
                quitter.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
            Server.Connection cut = ended.poll(30, TimeUnit.SECONDS);
            assertThat(cut).isNotNull();
            assertThat(cut.complete()).isFalse();
            assertThat(cut.bytes()).isLessThanOrEqualTo(65536);
            assertThat(ServerCommand.describe("s", cut)).contains(cut.bytes() + " bytes", "cut short");

            // and the server goes on serving
            Cli.Run after = Cli.exec("traditional-client", "--port", String.valueOf(port), "--file", file.toString());
            assertThat(after.exit()).as(after.err()).isZero();
            Server.Connection next = ended.poll(30, TimeUnit.SECONDS);
            assertThat(next).isNotNull();
            assertThat(next.crc32c()).isEqualTo(TestData.crc32c(content));
            assertThat(server.connections()).isEqualTo(3);
            assertThat(server.failures()).isEqualTo(1);
        }
    }

    @Test
    void server_manyClientsAtOnce_eachGetsItsOwnFile() throws Exception {
        int clients = 4;
        List<byte[]> contents = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            contents.add(TestData.bytes((1 << 20) + i * 1000, 100 + i));
            files.add(TestData.file(dir, "f" + i + ".bin", contents.get(i)));
        }
        BlockingQueue<Server.Connection> ended = new LinkedBlockingQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try (Server server = new Server(InetAddress.getLoopbackAddress(), 0, true, ended::add)) {
            int port = server.start();
            List<Future<Cli.Run>> runs = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                String client = i % 2 == 0 ? "traditional-client" : "transferto-client";
                String path = files.get(i).toString();
                runs.add(pool.submit(() -> Cli.exec(client, "--port", String.valueOf(port), "--file", path)));
            }
            for (Future<Cli.Run> run : runs) {
                Cli.Run r = run.get(30, TimeUnit.SECONDS);
                assertThat(r.exit()).as(r.err()).isZero();
            }
            List<Long> expected = new ArrayList<>();
            contents.forEach(c -> expected.add(TestData.crc32c(c)));
            List<Long> received = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Server.Connection c = ended.poll(30, TimeUnit.SECONDS);
                assertThat(c).isNotNull();
                assertThat(c.complete()).isTrue();
                received.add(c.crc32c());
            }
            assertThat(received).containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void server_portInUse_failsWithTheAddress() throws Exception {
        try (ServerSocketChannel taken = ServerSocketChannel.open()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            for (String server : List.of("traditional-server", "transferto-server")) {
                Cli.Run run = Cli.exec(server, "--port", String.valueOf(port));
                assertThat(run.exit()).isEqualTo(1);
                assertThat(run.err()).contains(server + ": cannot listen on 127.0.0.1:" + port);
            }
        }
    }

    @Test
    void client_nobodyListening_failsWithTheAddress() throws Exception {
        Path file = TestData.file(dir, "small.bin", TestData.bytes(100, 1));
        try (Socket bound = new Socket()) {
            // bound but not listening: connections to this port are refused
            bound.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = bound.getLocalPort();
            Cli.Run run = Cli.exec("traditional-client", "--port", String.valueOf(port), "--file", file.toString());
            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.err()).contains("cannot connect to 127.0.0.1:" + port);
        }
    }

    @Test
    void client_missingFile_isAUsageError() {
        Path missing = dir.resolve("no-such.bin");
        for (String client : List.of("traditional-client", "transferto-client")) {
            Cli.Run run = Cli.exec(client, "--port", "9", "--file", missing.toString());
            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.err()).contains("--file", "no such file", missing.toString());
        }
    }

    /**
     * What the library or the file would refuse is refused before connecting, so that the server
     * sees no connection (it used to log an empty transfer that succeeded).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "traditional-client | --strategy transferFrom | --strategy: ",
                "transferto-client  | --strategy transferFrom | --strategy: ",
                "transferto-client  | --strategy warp         | --strategy: ",
                "transferto-client  | --buffer-size 0         | --buffer-size: ",
            })
    void client_badStrategy_isAUsageErrorBeforeConnecting(String client, String option, String message)
            throws Exception {
        Path file = TestData.file(dir, "small.bin", TestData.bytes(100, 1));
        try (ServerSocketChannel server = listening()) {
            List<String> args = new ArrayList<>(List.of(client, "--port", port(server), "--file", file.toString()));
            args.addAll(List.of(option.split(" ")));
            Cli.Run run = Cli.exec(args.toArray(String[]::new));
            assertThat(run.exit()).as(run.err()).isEqualTo(2);
            assertThat(run.err()).contains(message, option.split(" ")[1]);
            assertNoConnection(server);
        }
    }

    /** The operators' system properties are checked before connecting too, and named as what is wrong. */
    @ParameterizedTest
    @ValueSource(strings = {"zerocopy.exclude", "zerocopy.strategy"})
    void client_badSystemProperty_isAUsageErrorNamingItBeforeConnecting(String property) throws Exception {
        Path file = TestData.file(dir, "small.bin", TestData.bytes(100, 1));
        try (ServerSocketChannel server = listening()) {
            Cli.Run run = ChildMain.run(
                    List.of(),
                    List.of("-D" + property + "=bogus"),
                    "traditional-client",
                    "--port",
                    port(server),
                    "--file",
                    file.toString());
            assertThat(run.exit()).as(run.out()).isEqualTo(2);
            assertThat(run.out())
                    .contains("system property " + property + ": bogus")
                    .doesNotContain("--strategy:");
            assertNoConnection(server);
        }
    }

    /** A file the user may not read, itself or by its directory, is refused before connecting, as such. */
    @Test
    void client_unreadableFile_isAUsageErrorBeforeConnecting() throws Exception {
        List<Path> unreadable = TestData.unreadableFiles(dir);
        try (ServerSocketChannel server = listening()) {
            for (Path file : unreadable) {
                Cli.Run run = ChildMain.run(
                        ChildMain.withoutPowerToReadAll(dir),
                        List.of(),
                        "transferto-client",
                        "--port",
                        port(server),
                        "--file",
                        file.toString());
                assertThat(run.exit()).as(run.out()).isEqualTo(2);
                assertThat(run.out()).contains("--file: access denied: " + file);
                assertNoConnection(server);
            }
        } finally {
            TestData.readableAgain(dir);
        }
    }

    private static ServerSocketChannel listening() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    private static String port(ServerSocketChannel server) throws IOException {
        return String.valueOf(((InetSocketAddress) server.getLocalAddress()).getPort());
    }

    /** No connection waits to be accepted: a client that had connected would have left one. */
    private static void assertNoConnection(ServerSocketChannel server) throws IOException {
        server.configureBlocking(false);
        try (SocketChannel accepted = server.accept()) {
            assertThat(accepted).as("a connection that reached the server").isNull();
        } finally {
            server.configureBlocking(true);
        }
    }

    @Test
    void client_unknownStrategy_isAUsageErrorNamingTheOption() throws Exception {
        Path file = TestData.file(dir, "small.bin", TestData.bytes(100, 1));
        Cli.Run run = Cli.exec("transferto-client", "--port", "9", "--file", file.toString(), "--strategy", "warp");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--strategy", "warp");
    }
}
