package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.benchmarks.Receiver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A blocking loopback (or Unix domain) connection whose far end a daemon thread reads and discards
 * as fast as it can, so that a sender measures its own cost and never waits for a slow receiver; or
 * a connection to a receiver elsewhere that drains it the same way.
 */
final class DrainedSocket implements AutoCloseable {
    private final SocketChannel sender;
    private final Thread drain;

    /**
     * A connection to a {@code Receiver} at {@code peer} (another process, such as the one in a veth
     * peer's namespace), told a message size it never reaches, so that it drains and never answers.
     */
    DrainedSocket(InetSocketAddress peer) throws IOException {
        sender = SocketChannel.open(peer);
        Receiver.announce(sender, Long.MAX_VALUE);
        drain = null;
    }

    /** A connection whose far end a thread of this JVM drains, or one to {@code peer} if not null. */
    static DrainedSocket to(InetSocketAddress peer) throws IOException {
        return peer == null ? new DrainedSocket() : new DrainedSocket(peer);
    }

    DrainedSocket() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            sender = SocketChannel.open(server.getLocalAddress());
            drain = drained(server.accept());
        }
    }

    private DrainedSocket(UnixDomainSocketAddress address) throws IOException {
        try (ServerSocketChannel server =
                ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(address)) {
            sender = SocketChannel.open(address);
            drain = drained(server.accept());
        }
    }

    /** A Unix domain connection whose far end a thread of this JVM drains. */
    static DrainedSocket unixDomain() throws IOException {
        Path dir = Files.createTempDirectory("fixed-cost");
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(dir.resolve("drain.sock"));
        try {
            return new DrainedSocket(address);
        } finally {
            Files.deleteIfExists(address.getPath());
            Files.delete(dir);
        }
    }

    private static Thread drained(SocketChannel receiver) {
        Thread drain = new Thread(() -> drain(receiver), "fixed-cost-drain");
        drain.setDaemon(true);
        drain.start();
        return drain;
    }

    SocketChannel channel() {
        return sender;
    }

    private static void drain(SocketChannel receiver) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (receiver) {
            while (receiver.read(buffer.clear()) >= 0) {
                // discard
            }
        } catch (IOException e) {
            // the sender closed: done
        }
    }

    @Override
    public void close() throws IOException {
        sender.close();
    }
}
