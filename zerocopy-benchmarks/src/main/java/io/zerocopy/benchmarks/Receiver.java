package io.zerocopy.benchmarks;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The far end of the socket benchmarks: accepts connections, and on each reads an 8-byte message
 * size, then drains messages of that size for ever, answering each with one byte. The sender waits
 * for that byte, so one benchmark operation lasts until the last byte has arrived, not merely until
 * it fitted into the send buffer. Every connection drains through the same 1 MiB direct buffer
 * loop, so the receiver costs every contender the same.
 *
 * <p>Runs inside the benchmark JVM for loopback, and as its own process ({@link #main}) inside a
 * network namespace for the veth peer (see {@link VethPeer}).
 */
public final class Receiver implements Closeable {
    private final ServerSocketChannel server;
    private final Thread acceptor;

    private Receiver(ServerSocketChannel server) {
        this.server = server;
        this.acceptor = new Thread(this::acceptLoop, "receiver-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Opens a message stream on {@code channel}: the 8-byte size of each message that follows. */
    public static void announce(SocketChannel channel, long messageSize) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(Long.BYTES).putLong(messageSize).flip();
        while (header.hasRemaining()) {
            channel.write(header);
        }
    }

    /** Starts a receiver on {@code address} (port 0 picks a free port). */
    static Receiver start(InetSocketAddress address) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(address);
        return new Receiver(server);
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            try {
                SocketChannel connection = server.accept();
                Thread drain = new Thread(() -> drain(connection), "receiver-drain");
                drain.setDaemon(true);
                drain.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void drain(SocketChannel connection) {
        try (connection) {
            ByteBuffer header = ByteBuffer.allocate(Long.BYTES);
            readFully(connection, header);
            long size = header.flip().getLong();
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            ByteBuffer ack = ByteBuffer.allocateDirect(1);
            while (true) {
                for (long left = size; left > 0; ) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), left));
                    int n = connection.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    left -= n;
                }
                ack.clear();
                while (ack.hasRemaining()) {
                    connection.write(ack);
                }
            }
        } catch (IOException e) {
            // the sender went away; nothing to report
        }
    }

    private static void readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException();
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /**
     * Runs a receiver as its own process: {@code Receiver <address> <port>}. Prints
     * {@code READY <port>} once listening and exits when its standard input closes, so it never
     * outlives the benchmark that started it.
     */
    public static void main(String[] args) throws IOException {
        try (Receiver receiver =
                start(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])))) {
            System.out.println("READY " + receiver.address().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the parent to close our input
            }
        }
    }
}
