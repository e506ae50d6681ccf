package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        Cli cli = new Cli();
        RelayCommand command = cli.command("relay");
        CompletableFuture<Cli.Run> run = new CompletableFuture<>();
        Thread relayThread = new Thread(
                () -> run.complete(cli.run(
                        "relay", "--listen", "0", "--to", "no.such.host.invalid:80", "--connections", "1")),
                "relay");
        relayThread.setDaemon(true);
        relayThread.start();
        // whichever comes first: the end of the run, or a relay that started anyway
        CompletableFuture.anyOf(run, command.started).get(30, TimeUnit.SECONDS);
        assertThat(run).as("ended without starting").isDone();
        Cli.Run result = run.get();
        assertThat(result.exit()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains("--to: unknown host no.such.host.invalid").doesNotContain("Exception");
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
