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
import java.util.concurrent.CompletableFuture;
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
