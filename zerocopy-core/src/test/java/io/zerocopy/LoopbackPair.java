package io.zerocopy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * Two connected loopback sockets on 127.0.0.1: {@link #sender} (the client end, blocking unless the
 * test switches it) and {@link #receiver} (the accepted end). With a small buffer size both the
 * sender's send buffer and the receiver's receive buffer are small, so a sender whose receiver does
 * not read really finds its socket full after some tens of kilobytes.
 */
final class LoopbackPair implements AutoCloseable {
    /** 16 KiB: the kernel doubles it, so about 64 KiB fit in the two buffers together. */
    static final int SMALL_BUFFER = 16 * 1024;

    private static final InetAddress LOOPBACK = ipv4Loopback();

    final SocketChannel sender;
    final SocketChannel receiver;

    private LoopbackPair(SocketChannel sender, SocketChannel receiver) {
        this.sender = sender;
        this.receiver = receiver;
    }

    /** A pair with {@link #SMALL_BUFFER} socket buffers. */
    static LoopbackPair open() throws IOException {
        return open(SMALL_BUFFER);
    }

    /** A pair whose sender's send and receiver's receive buffers are {@code bufferSize} (0: the system's). */
    static LoopbackPair open(int bufferSize) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            if (bufferSize > 0) {
                server.setOption(StandardSocketOptions.SO_RCVBUF, bufferSize); // inherited by the accepted socket
            }
            server.bind(new InetSocketAddress(LOOPBACK, 0));
            SocketChannel sender = SocketChannel.open();
            try {
                if (bufferSize > 0) {
                    sender.setOption(StandardSocketOptions.SO_SNDBUF, bufferSize);
                }
                sender.connect(server.getLocalAddress());
                return new LoopbackPair(sender, server.accept());
            } catch (IOException | RuntimeException e) {
                sender.close();
                throw e;
            }
        }
    }

    /** Reads the receiver to end of stream on a new daemon thread; the future holds every byte read. */
    CompletableFuture<byte[]> drainInBackground() {
        CompletableFuture<byte[]> all = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try {
                        all.complete(readToEnd(receiver));
                    } catch (Throwable t) {
                        all.completeExceptionally(t);
                    }
                },
                "loopback-pair-reader");
        reader.setDaemon(true);
        reader.start();
        return all;
    }

    /** Everything {@code channel} yields up to end of stream (blocking reads). */
    static byte[] readToEnd(SocketChannel channel) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        while (channel.read(buffer) >= 0) {
            out.write(buffer.array(), 0, buffer.position());
            buffer.clear();
        }
        return out.toByteArray();
    }

    /** Reads exactly {@code count} bytes from {@code channel} (blocking), failing at end of stream. */
    static byte[] readExactly(SocketChannel channel, int count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(count);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("end of stream after " + buffer.position() + " of " + count + " bytes");
            }
        }
        return buffer.array();
    }

    @Override
    public void close() throws IOException {
        try {
            sender.close();
        } finally {
            receiver.close();
        }
    }

    private static InetAddress ipv4Loopback() {
        try {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
