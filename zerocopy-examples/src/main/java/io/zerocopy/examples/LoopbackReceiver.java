package io.zerocopy.examples;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;

/**
 * A receiver on 127.0.0.1 that drains one connection at a time on a background thread and
 * reports how many bytes arrived (and, if asked, their CRC32C) once the sender closes.
 */
final class LoopbackReceiver implements AutoCloseable {

    /** What arrived on one connection. */
    static final class Received {
        final long bytes;
        final long crc;
        final long endNanos;

        Received(long bytes, long crc, long endNanos) {
            this.bytes = bytes;
            this.crc = crc;
            this.endNanos = endNanos;
        }
    }

    private final ServerSocketChannel server;

    LoopbackReceiver() throws IOException {
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    /** Accepts the next connection and drains it on a new thread. */
    CompletableFuture<Received> receiveOne(boolean checksum) {
        CompletableFuture<Received> result = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try (SocketChannel peer = server.accept()) {
                        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
                        byte[] heap = checksum ? new byte[1 << 20] : null;
                        CRC32C crc = new CRC32C();
                        long total = 0;
                        for (int n; (n = peer.read(buffer)) >= 0; ) {
                            total += n;
                            if (checksum) {
                                buffer.flip();
                                buffer.get(heap, 0, n);
                                crc.update(heap, 0, n);
                            }
                            buffer.clear();
                        }
                        result.complete(new Received(total, crc.getValue(), System.nanoTime()));
                    } catch (Throwable e) {
                        result.completeExceptionally(e);
                    }
                },
                "loopback-receiver");
        t.setDaemon(true);
        t.start();
        return result;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
