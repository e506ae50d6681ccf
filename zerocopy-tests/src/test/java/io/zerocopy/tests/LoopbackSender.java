package io.zerocopy.tests;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The far end of a loopback connection the test reads from: a background thread connects to a
 * listener on 127.0.0.1, writes the given bytes (or a slice of a file) and closes, so the accepted socket ends with a
 * clean end of stream. The test side gets the accepted socket, either as a {@code SocketChannel}
 * ({@link #toChannel}) or as a plain {@code java.net.Socket} ({@link #toSocket}).
 */
final class LoopbackSender implements Closeable {
    private static final long WAIT_SECONDS = 120;

    /** 127.0.0.1 itself, whatever the JVM's IPv6 preference. */
    private static final InetAddress LOOPBACK = ipv4Loopback();

    private final Closeable listener;
    private final Closeable accepted;
    private final CompletableFuture<Void> sent;

    private LoopbackSender(Closeable listener, Closeable accepted, CompletableFuture<Void> sent) {
        this.listener = listener;
        this.accepted = accepted;
        this.sent = sent;
    }

    /** Sends {@code data} to a {@code SocketChannel} that {@link #channel()} returns. */
    static LoopbackSender toChannel(byte[] data) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(LOOPBACK, 0));
            CompletableFuture<Void> sent = send(server.getLocalAddress(), data);
            return new LoopbackSender(server, server.accept(), sent);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Sends {@code data} to a plain {@code Socket} that {@link #socket()} returns. */
    static LoopbackSender toSocket(byte[] data) throws IOException {
        ServerSocket server = new ServerSocket(0, 1, LOOPBACK);
        try {
            CompletableFuture<Void> sent = send(server.getLocalSocketAddress(), data);
            return new LoopbackSender(server, server.accept(), sent);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Sends {@code count} bytes of {@code file} from {@code position} (with {@code transferTo}, so
     * gigabytes cost little) to a {@code SocketChannel} that {@link #channel()} returns.
     */
    static LoopbackSender toChannel(Path file, long position, long count) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(LOOPBACK, 0));
            SocketAddress address = server.getLocalAddress();
            CompletableFuture<Void> sent = start(() -> {
                try (SocketChannel socket = SocketChannel.open(address);
                        FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
                    for (long done = 0; done < count; ) {
                        long n = in.transferTo(position + done, count - done, socket);
                        if (n <= 0) {
                            throw new IOException("transferTo moved " + n + " bytes at " + (position + done));
                        }
                        done += n;
                    }
                }
            });
            return new LoopbackSender(server, server.accept(), sent);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static CompletableFuture<Void> send(SocketAddress address, byte[] data) {
        return start(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(address);
                OutputStream out = socket.getOutputStream();
                out.write(data);
                out.flush();
            }
        });
    }

    /** What the sending thread does; it closes its socket when done. */
    private interface Send {
        void run() throws IOException;
    }

    private static CompletableFuture<Void> start(Send send) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        send.run();
                        sent.complete(null);
                    } catch (Throwable t) {
                        sent.completeExceptionally(t);
                    }
                },
                "loopback-sender");
        thread.setDaemon(true);
        thread.start();
        return sent;
    }

    SocketChannel channel() {
        return (SocketChannel) accepted;
    }

    Socket socket() {
        return (Socket) accepted;
    }

    /** Waits until the sending thread has written everything and closed its socket. */
    void awaitSent() throws Exception {
        sent.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
        try {
            accepted.close();
        } finally {
            listener.close();
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
