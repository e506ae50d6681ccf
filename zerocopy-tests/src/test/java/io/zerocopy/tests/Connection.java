package io.zerocopy.tests;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * Two ends of one TCP connection on 127.0.0.1: {@link #near} goes to the code under test, the test
 * plays the peer on {@link #far}. Closing closes both. Public for the step tests in package
 * {@code io.zerocopy}.
 */
public record Connection(SocketChannel near, SocketChannel far) implements AutoCloseable {

    public static Connection open() throws IOException {
        try (ServerSocketChannel server =
                ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            SocketChannel far = SocketChannel.open(server.getLocalAddress());
            try {
                return new Connection(server.accept(), far);
            } catch (IOException | RuntimeException e) {
                far.close();
                throw e;
            }
        }
    }

    /**
     * Writes {@code data} from the far end on a new thread, then shuts its output down if
     * {@code thenEnd} (the near end then reads end of stream); the future completes when done.
     */
    public CompletableFuture<Void> send(byte[] data, boolean thenEnd) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        ByteBuffer buffer = ByteBuffer.wrap(data);
                        while (buffer.hasRemaining()) {
                            far.write(buffer);
                        }
                        if (thenEnd) {
                            far.shutdownOutput();
                        }
                        done.complete(null);
                    } catch (Throwable t) {
                        done.completeExceptionally(t);
                    }
                },
                "connection-sender");
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    /** Reads exactly {@code count} bytes from the far end (blocking). */
    public byte[] receive(int count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(count);
        while (buffer.hasRemaining()) {
            if (far.read(buffer) < 0) {
                throw new IOException("end of stream after " + buffer.position() + " of " + count + " bytes");
            }
        }
        return buffer.array();
    }

    @Override
    public void close() throws IOException {
        try (far) {
            near.close();
        }
    }
}
