package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code relay} in-process on 127.0.0.1 in front of an echo server: what a client sends comes back
 * byte for byte through both directions of the relay, and each connection prints its line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RelayCommandTest {
    private static final long SEED =
            Long.getLong("zerocopy.seed", ThreadLocalRandom.current().nextLong());

    @Test
    void relay_echoesThroughBothDirections() throws Exception {
        System.out.println("RelayCommandTest: seed " + SEED + " (replay with -Dzerocopy.seed=" + SEED + ")");
        try (ServerSocketChannel echo =
                ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            Thread echoThread = new Thread(() -> echo(echo, 2), "echo");
            echoThread.setDaemon(true);
            echoThread.start();
            Cli cli = new Cli();
            RelayCommand command = cli.command("relay");
            int echoPort = ((InetSocketAddress) echo.getLocalAddress()).getPort();
            CompletableFuture<Cli.Run> run = new CompletableFuture<>();
            // Own threads, not the common pool: on two cores it has one thread, which the relay would hold.
            Thread relayThread = new Thread(
                    () -> run.complete(
                            cli.run("relay", "--listen", "0", "--to", "127.0.0.1:" + echoPort, "--connections", "2")),
                    "relay");
            relayThread.setDaemon(true);
            relayThread.start();
            InetSocketAddress relay = command.started.get(20, TimeUnit.SECONDS);

            Random random = new Random(SEED);
            for (int size : new int[] {1, 3_000_017}) {
                byte[] data = new byte[size];
                random.nextBytes(data);
                assertThat(roundTrip(relay, data))
                        .as("echoed through the relay, %d bytes", size)
                        .isEqualTo(data);
            }

            Cli.Run result = run.get(30, TimeUnit.SECONDS);
            assertThat(result.exit()).as(result.err()).isZero();
            assertThat(result.out())
                    .contains("relaying ", "1 bytes up, 1 bytes down", "3000017 bytes up, 3000017 bytes down");
        }
    }

    /** An unresolvable --to is refused at start, as the clients refuse an unknown --host, not on the first client. */
    @Test
    void relay_unresolvableTarget_isAUsageError() throws Exception {
        Cli.Run result = refusedAtStart("relay", "--listen", "0", "--to", "no.such.host.invalid:80");
        assertThat(result.exit()).as(result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains("--to: unknown host no.such.host.invalid")
                .doesNotContain("Exception");
    }

    /** A connection whose target cannot be reached fails alone: it is reported, and the next one is accepted. */
    @Test
    void relay_connectionsThatCannotReachTheTarget_failAlone() throws Exception {
        BlockingQueue<Relay.Connection> ended = new LinkedBlockingQueue<>();
        try (Relay relay = Relay.start(
                new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0),
                InetSocketAddress.createUnresolved("no.such.host.invalid", 80),
                null,
                ended::add)) {
            for (int i = 0; i < 2; i++) {
                try (SocketChannel client = SocketChannel.open(relay.address())) {
                    Relay.Connection c = ended.poll(10, TimeUnit.SECONDS);
                    assertThat(c).as("connection %d reported", i + 1).isNotNull();
                    assertThat(c.failure()).contains("cannot reach", "no.such.host.invalid");
                    assertThat(readToEnd(client)).as("closed by the relay").isZero();
                }
            }
        }
    }

    /** A bad option is refused at start with one line naming it, exit 2, rather than a trace or a relay that runs. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--strategy bogus            | --strategy: strategy: bogus (expected one of: ",
                "--bind no.such.host.invalid | --bind: unknown address no.such.host.invalid",
                "--connections -3            | --connections: -3",
            })
    void relay_badOption_isAUsageErrorNamingIt(String option, String message) throws Exception {
        List<String> args = new ArrayList<>(List.of("relay", "--listen", "0", "--to", "127.0.0.1:9"));
        args.addAll(List.of(option.split(" ")));
        Cli.Run result = refusedAtStart(args.toArray(String[]::new));
        assertThat(result.exit()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains(message).doesNotContain("Exception");
    }

    /**
     * A strategy the library has but cannot copy from a socket to a socket with on this JVM is refused
     * at start, naming those that can, rather than failing every connection.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mmap", "transferFrom", "splice"})
    void relay_strategyThatCannotRelay_isAUsageErrorNamingThoseThatCan(String strategy) throws Exception {
        assumeTrue(!strategy.equals("splice") || Runtime.version().feature() < 22, "splice relays on Java 22+");
        Cli.Run result = refusedAtStart("relay", "--listen", "0", "--to", "127.0.0.1:9", "--strategy", strategy);
        assertThat(result.exit()).as(result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains("--strategy: " + strategy + " cannot copy from a socket to a socket on this JVM")
                .containsPattern("\\(expected: auto(, .*)? or .*\\)")
                .contains("buffered")
                .doesNotContain("Exception");
    }

    /** A bad system property of the library is refused at start too, named as what is wrong. */
    @Test
    void relay_badSystemProperty_isAUsageErrorNamingIt() throws Exception {
        Cli.Run run = ChildMain.run(
                List.of(), List.of("-Dzerocopy.exclude=bogus"), "relay", "--listen", "0", "--to", "127.0.0.1:9");
        assertThat(run.exit()).as(run.out()).isEqualTo(2);
        assertThat(run.out())
                .contains("system property zerocopy.exclude: bogus")
                .doesNotContain("--strategy:");
    }

    /** A connection whose copy the library refuses is reported as failed, with the reason. */
    @Test
    void relay_connectionTheLibraryRefuses_isReportedFailed() throws Exception {
        BlockingQueue<Relay.Connection> ended = new LinkedBlockingQueue<>();
        try (ServerSocketChannel target =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
                Relay relay = Relay.start(
                        new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0),
                        (InetSocketAddress) target.getLocalAddress(),
                        "mmap",
                        ended::add);
                SocketChannel client = SocketChannel.open(relay.address())) {
            Relay.Connection c = ended.poll(20, TimeUnit.SECONDS);
            assertThat(c).as("reported").isNotNull();
            assertThat(c.failure()).as("failure").contains("mmap");
        }
    }

    @Test
    void relay_portInUse_failsWithTheAddress() throws Exception {
        try (ServerSocketChannel taken = ServerSocketChannel.open()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            Cli.Run run = Cli.exec("relay", "--listen", String.valueOf(port), "--to", "127.0.0.1:9");
            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.err()).contains("relay: cannot listen on 127.0.0.1:" + port + ": ");
        }
    }

    /** Runs the relay and returns how it ended; fails if it started listening instead. */
    private static Cli.Run refusedAtStart(String... args) throws Exception {
        Cli cli = new Cli();
        RelayCommand command = cli.command("relay");
        CompletableFuture<Cli.Run> run = new CompletableFuture<>();
        Thread relayThread = new Thread(() -> run.complete(cli.run(args)), "relay");
        relayThread.setDaemon(true);
        relayThread.start();
        // whichever comes first: the end of the run, or a relay that started anyway
        CompletableFuture<Object> first = new CompletableFuture<>();
        run.thenAccept(first::complete);
        command.started.thenAccept(first::complete);
        first.get(30, TimeUnit.SECONDS);
        assertThat(run).as("ended without starting").isDone();
        return run.get();
    }

    /** Bytes read until end of stream or a reset. */
    private static long readToEnd(SocketChannel channel) {
        long n = 0;
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        try {
            for (int r; (r = channel.read(buffer.clear())) >= 0; ) {
                n += r;
            }
        } catch (IOException reset) {
            // as good as the end here
        }
        return n;
    }

    /** Sends {@code data} while reading the echo, then ends the output and reads to the end. */
    private static byte[] roundTrip(InetSocketAddress relay, byte[] data) throws Exception {
        try (SocketChannel client = SocketChannel.open(relay)) {
            CompletableFuture<Void> sent = new CompletableFuture<>();
            Thread sender = new Thread(
                    () -> {
                        try {
                            ByteBuffer out = ByteBuffer.wrap(data);
                            while (out.hasRemaining()) {
                                client.write(out);
                            }
                            client.shutdownOutput();
                            sent.complete(null);
                        } catch (IOException e) {
                            sent.completeExceptionally(e);
                        }
                    },
                    "relay-test-sender");
            sender.setDaemon(true);
            sender.start();
            ByteBuffer in = ByteBuffer.allocate(data.length + 1);
            while (client.read(in) >= 0 && in.position() <= data.length) {
                // until end of stream, or one byte too many
            }
            sent.get(20, TimeUnit.SECONDS);
            return Arrays.copyOf(in.array(), in.position());
        }
    }

    /** Echoes {@code connections} connections one after the other, each to its end. */
    private static void echo(ServerSocketChannel server, int connections) {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        for (int i = 0; i < connections; i++) {
            try (SocketChannel c = server.accept()) {
                while (c.read(buffer.clear()) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        c.write(buffer);
                    }
                }
                c.shutdownOutput();
            } catch (IOException e) {
                return;
            }
        }
    }
}
