package io.zerocopy.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection to a {@link Receiver}, on loopback (receiver thread in this JVM) or on the veth
 * peer (receiver process in another network namespace), set up for messages of one size.
 */
final class SocketPeer implements AutoCloseable {
    private final Receiver loopback;
    private final VethPeer veth;
    private final SocketChannel channel;
    private final OutputStream stream;
    private final ByteBuffer ack = ByteBuffer.allocateDirect(1);

    /**
     * Connects to a new receiver.
     *
     * @param peer {@code loopback} or {@code veth}
     * @param noDelay the sender's {@code TCP_NODELAY}
     * @param size the size of every message that will be sent
     */
    SocketPeer(String peer, boolean noDelay, long size) throws IOException, InterruptedException {
        InetSocketAddress address;
        switch (peer) {
            case "loopback":
                loopback = Receiver.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                veth = null;
                address = loopback.address();
                break;
            case "veth":
                loopback = null;
                veth = VethPeer.start();
                address = veth.address();
                break;
            default:
                throw new IllegalArgumentException("peer: " + peer + " (expected: loopback or veth)");
        }
        channel = SocketChannel.open(address);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
        Receiver.announce(channel, size);
        stream = channel.socket().getOutputStream();
    }

    SocketChannel channel() {
        return channel;
    }

    OutputStream stream() {
        return stream;
    }

    /** Waits until the receiver has the whole message. */
    void awaitAck() throws IOException {
        ack.clear();
        if (channel.read(ack) < 0) {
            throw new IOException("the receiver closed the connection");
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
        if (loopback != null) {
            loopback.close();
        }
        if (veth != null) {
            veth.close();
        }
    }
}
