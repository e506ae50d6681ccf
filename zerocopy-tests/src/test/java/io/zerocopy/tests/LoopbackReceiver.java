package io.zerocopy.tests;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * The far end of a loopback connection the test sends to. It listens on 127.0.0.1 with an
 * ephemeral port, accepts one connection on a background thread and reads it to end of stream,
 * keeping a byte count and a CRC32C of everything read.
 *
 * <p>With {@link #SMALL_BUFFER} the receive buffer (and, through {@link #connectChannel()} and
 * {@link #connectSocket()}, the sender's send buffer) is small, so the sender really sees partial
 * writes and a full send buffer. Its behaviours:
 * <ul>
 *   <li>{@link #draining}: reads as fast as it can;</li>
 *   <li>{@link #gated}: accepts, then reads nothing until {@link #openGate()} (the sender fills the
 *       buffers and stalls);</li>
 *   <li>{@link #resettingAfter}: reads at least a given number of bytes, then closes with
 *       {@code SO_LINGER} 0 so the sender gets a reset;</li>
 *   <li>{@link #endingAfter}: the same, but first stops reading until the test says
 *       {@link #end()}, and can also close without the reset.</li>
 * </ul>
 */
final class LoopbackReceiver implements AutoCloseable {
    /** 16 KiB: small enough that a few megabytes cannot sit in the socket buffers. */
    static final int SMALL_BUFFER = 16 * 1024;

    /** Upper bound for any wait on the receiver; tests' own {@code @Timeout}s are shorter. */
    private static final long WAIT_SECONDS = 120;

    /** 127.0.0.1 itself, whatever the JVM's IPv6 preference. */
    private static final InetAddress LOOPBACK = ipv4Loopback();

    /** What was read from one connection up to its end of stream. */
    record Received(long bytes, long crc32c) {}

    private final ServerSocketChannel server;
    private final int bufferSize;
    private final boolean gated;
    private final long resetAfter;
    /** For {@link #endingAfter}: hold after the bytes until {@link #end()}, then close with a FIN or a reset. */
    private final boolean hold;

    private final boolean resets;
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch end = new CountDownLatch(1);
    /** Counted when the reader's {@code accept} has returned or failed (see {@link #close()}). */
    private final CountDownLatch acceptEnded = new CountDownLatch(1);

    private final CompletableFuture<Received> received = new CompletableFuture<>();
    private final CompletableFuture<Long> reset = new CompletableFuture<>();
    private final Thread thread;

    private LoopbackReceiver(int bufferSize, boolean gated, long resetAfter) throws IOException {
        this(bufferSize, gated, resetAfter, false, true);
    }

    private LoopbackReceiver(int bufferSize, boolean gated, long resetAfter, boolean hold, boolean reset)
            throws IOException {
        this.bufferSize = bufferSize;
        this.gated = gated;
        this.resetAfter = resetAfter;
        this.hold = hold;
        this.resets = reset;
        this.server = ServerSocketChannel.open();
        try {
            if (bufferSize > 0) {
                // Accepted sockets inherit the listening socket's receive buffer.
                server.setOption(StandardSocketOptions.SO_RCVBUF, bufferSize);
            }
            server.bind(new InetSocketAddress(LOOPBACK, 0));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        this.thread = new Thread(this::run, "loopback-receiver-" + port());
        thread.setDaemon(true);
        thread.start();
    }

    /** A receiver that reads everything as it arrives; {@code bufferSize} 0 keeps the system's buffer sizes. */
    static LoopbackReceiver draining(int bufferSize) throws IOException {
        return new LoopbackReceiver(bufferSize, false, -1);
    }

    /** A receiver that accepts the connection but reads nothing until {@link #openGate()}. */
    static LoopbackReceiver gated(int bufferSize) throws IOException {
        return new LoopbackReceiver(bufferSize, true, -1);
    }

    /** A receiver that reads at least {@code bytes} bytes, then resets the connection. */
    static LoopbackReceiver resettingAfter(long bytes, int bufferSize) throws IOException {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes: " + bytes + " (expected: > 0)");
        }
        return new LoopbackReceiver(bufferSize, false, bytes);
    }

    /**
     * A receiver that reads at least {@code bytes} bytes, then stops reading until {@link #end()},
     * and then closes: with a reset if {@code reset}, else with an ordinary close (a FIN; the
     * sender's next bytes then draw a reset from the peer's kernel).
     */
    static LoopbackReceiver endingAfter(long bytes, int bufferSize, boolean reset) throws IOException {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes: " + bytes + " (expected: > 0)");
        }
        return new LoopbackReceiver(bufferSize, false, bytes, true, reset);
    }

    /** For {@link #endingAfter}: waits until the receiver has read its bytes and stopped reading. */
    boolean awaitPaused(long timeout, TimeUnit unit) throws InterruptedException {
        return paused.await(timeout, unit);
    }

    /** For {@link #endingAfter}: lets the receiver close the connection. */
    void end() {
        end.countDown();
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    private int port() {
        try {
            return address().getPort();
        } catch (IOException e) {
            return -1;
        }
    }

    /** A blocking client channel connected to this receiver, with the same small send buffer. */
    SocketChannel connectChannel() throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            if (bufferSize > 0) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, bufferSize);
            }
            channel.connect(address());
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** A plain {@code java.net.Socket} (no channel) connected to this receiver. */
    Socket connectSocket() throws IOException {
        Socket socket = new Socket();
        try {
            if (bufferSize > 0) {
                socket.setSendBufferSize(bufferSize);
            }
            socket.connect(address());
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Lets a {@link #gated} receiver start reading. */
    void openGate() {
        gate.countDown();
    }

    /** Waits for end of stream and returns what arrived; rethrows the reader's failure. */
    Received received() throws Exception {
        return received.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Whether the reader has seen the end of stream (or failed) by now. */
    boolean ended() {
        return received.isDone();
    }

    /** For {@link #resettingAfter}: waits for the reset and returns how many bytes were read before it. */
    long readBeforeReset() throws Exception {
        return reset.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private void run() {
        SocketChannel peer = null;
        try {
            try {
                peer = server.accept();
            } finally {
                acceptEnded.countDown();
            }
            if (gated) {
                gate.await();
            }
            ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
            CRC32C crc = new CRC32C();
            long count = 0;
            for (int n = peer.read(buffer); n >= 0; n = peer.read(buffer)) {
                buffer.flip();
                crc.update(buffer);
                buffer.clear();
                count += n;
                if (resetAfter > 0 && count >= resetAfter) {
                    paused.countDown();
                    if (hold) {
                        end.await();
                    }
                    if (resets) {
                        // Linger 0: close() discards unread data and sends RST instead of FIN.
                        peer.setOption(StandardSocketOptions.SO_LINGER, 0);
                    }
                    peer.close();
                    reset.complete(count);
                    received.complete(new Received(count, crc.getValue()));
                    return;
                }
            }
            received.complete(new Received(count, crc.getValue()));
            reset.completeExceptionally(
                    new IOException("end of stream after " + count + " bytes, before the reset point"));
        } catch (Throwable t) {
            received.completeExceptionally(t);
            reset.completeExceptionally(t);
        } finally {
            closeQuietly(peer);
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // already failed or finished; nothing left to report
            }
        }
    }

    /**
     * Closes the listening socket and stops the reader (if still running). The reader is interrupted
     * only once its {@code accept} has returned: a thread interrupted while its accept is taking a
     * connection gets {@code ClosedByInterruptException}, and the JDK leaves the accepted socket's
     * descriptor open for good. Closing the listening socket ends a waiting accept without that
     * loss; one that already has a connection returns it, and the reader closes it.
     */
    @Override
    public void close() throws IOException {
        server.close();
        try {
            if (acceptEnded.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                thread.interrupt();
            }
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
