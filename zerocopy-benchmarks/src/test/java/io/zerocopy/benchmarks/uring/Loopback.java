package io.zerocopy.benchmarks.uring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/** One loopback connection for the senders' tests: the sender's {@link #socket} and its {@link #peer}. */
final class Loopback implements AutoCloseable {
    private final ServerSocketChannel server;
    final SocketChannel socket;
    final SocketChannel peer;

    Loopback() throws IOException {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
    }

    /** The next {@code count} bytes the peer receives, or fewer if the stream ends first; read on another thread. */
    CompletableFuture<byte[]> receive(int count) {
        return CompletableFuture.supplyAsync(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(count);
            try {
                while (buffer.hasRemaining() && peer.read(buffer) >= 0) {
                    // until the count or the end of the stream
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return Arrays.copyOf(buffer.array(), buffer.position());
        });
    }

    /** After the expected bytes, the peer gets end-of-stream once the sender shuts its output: nothing else. */
    void assertNothingMoreArrives() throws IOException {
        socket.shutdownOutput();
        assertThat(peer.read(ByteBuffer.allocate(1))).isEqualTo(-1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
        peer.close();
        server.close();
    }
}
