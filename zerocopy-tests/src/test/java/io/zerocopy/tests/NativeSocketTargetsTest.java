package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zerocopy.Transfer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A socket sent into natively ({@code sendfile} into its descriptor) keeps the promises of the
 * socket's own write whatever its kind: a Unix-domain socket waits for room and times out as a TCP
 * one does, and a socket whose output was shut down, before or during a send, fails as the JDK's
 * write fails on it. This
 * module's native-access run.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NativeSocketTargetsTest {
    @TempDir
    Path dir;

    /** A Unix-domain socket whose peer reads nothing fails after the stall timeout, as a TCP one does. */
    @Test
    void aUnixSocketThatStaysFull_failsAfterTheStallTimeout() throws Exception {
        Path file = sparse(64L << 20);
        TransferOptions options =
                TransferOptions.builder().stallTimeout(Duration.ofSeconds(1)).build();
        try (Pair pair = Pair.connected("unix", dir)) {
            Throwable failure = catchThrowable(() -> Transfers.copy(file, (WritableByteChannel) pair.sender, options));

            assertThat(failure).isInstanceOf(TransferTimeoutException.class);
            assertThat(((TransferException) failure).bytesTransferred()).isPositive();
        }
    }

    /** Output shut down before the copy: it fails with what the JDK's own write on that socket throws. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "unix"})
    void aShutOutput_failsTheCopyAsTheJdksWriteFails(String family) throws Exception {
        Path file = sparse(1L << 20);
        try (Pair pair = Pair.connected(family, dir)) {
            pair.sender.shutdownOutput();
            Throwable jdks = catchThrowable(() -> pair.sender.write(ByteBuffer.wrap(new byte[] {1})));
            assertThat(jdks).as("the JDK's own write").isNotNull();

            Throwable failure = catchThrowable(() -> Transfers.copy(file, (WritableByteChannel) pair.sender));

            assertThat(failure).isInstanceOf(TransferException.class);
            assertThat(failure.getCause()).hasSameClassAs(jdks);
        }
    }

    /**
     * Another thread's {@code shutdownOutput} ends a send blocked on a full socket at once, as it
     * ends the JDK's write: the socket then polls writable, and its room never comes. A handle fills
     * the socket until it takes no more, so the copy, once started, finds no room.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "unix"})
    void shutdownOutputByAnotherThread_endsABlockedSend(String family) throws Exception {
        Path file = sparse(8L << 20);
        CountDownLatch started = new CountDownLatch(1);
        TransferOptions patient = TransferOptions.builder()
                .stallTimeout(Duration.ofMinutes(10))
                .listener(new TransferListener() {
                    @Override
                    public void onStart(String strategy, long count) {
                        started.countDown();
                    }
                })
                .build();
        try (Pair pair = Pair.connected(family, dir)) {
            try (Transfer filling = Transfers.open(file, pair.sender)) {
                for (int advances = 0; filling.advance() > 0; advances++) {
                    assertThat(advances)
                            .as("advances before the socket is full")
                            .isLessThan(10_000);
                }
            }
            CompletableFuture<Throwable> outcome = NativePromisesTest.copyOnAPlatformThread(file, pair.sender, patient);
            assertThat(started.await(30, TimeUnit.SECONDS)).as("started").isTrue();

            pair.sender.shutdownOutput();

            Throwable failure = outcome.get(5, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferException.class);
            assertThat(failure.getCause()).isInstanceOf(AsynchronousCloseException.class);
        }
    }

    /**
     * A blocking sender with a small send buffer ({@link LoopbackReceiver#SMALL_BUFFER}) and a peer
     * that reads nothing, connected by TCP on 127.0.0.1 or a Unix-domain socket in {@code dir}.
     */
    private record Pair(ServerSocketChannel server, SocketChannel sender, SocketChannel peer) implements AutoCloseable {
        static Pair connected(String family, Path dir) throws Exception {
            boolean unix = family.equals("unix");
            ServerSocketChannel server =
                    unix ? ServerSocketChannel.open(StandardProtocolFamily.UNIX) : ServerSocketChannel.open();
            SocketAddress at = unix
                    ? UnixDomainSocketAddress.of(dir.resolve("socket-" + System.nanoTime()))
                    : new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0);
            server.bind(at);
            SocketChannel sender = unix ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
            sender.setOption(StandardSocketOptions.SO_SNDBUF, LoopbackReceiver.SMALL_BUFFER);
            sender.connect(server.getLocalAddress());
            return new Pair(server, sender, server.accept());
        }

        @Override
        public void close() throws Exception {
            peer.close();
            sender.close();
            server.close();
        }
    }

    private Path sparse(long size) throws Exception {
        return NativePromisesTest.sparse(dir.resolve("sparse-" + size), size);
    }
}
