package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Random;

/**
 * The far end of every scale-benchmark connection, as its own process so that the sender's CPU
 * counts the sender alone: receivers that read 16 KiB at a time and answer one byte once the
 * whole message arrived, or senders for the socket → file pair (see {@link PeerProtocol}). A few
 * selector threads serve all connections, so a thousand of them cost the peer little.
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.scale.PeerServer <address> <port> [threads]}
 * prints {@code READY <port>} once listening (port 0 picks one) and exits when its standard input
 * closes, so it never outlives the benchmark that started it.
 */
public final class PeerServer {
    /** Default selector threads: one per core of the development machine. */
    static final int DEFAULT_THREADS = 2;

    private static final int BACKLOG = 4096;

    private PeerServer() {}

    /**
     * Runs the peer.
     *
     * @param args address, port, optionally the number of selector threads
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: PeerServer <address> <port> [threads]");
            System.exit(2);
        }
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_THREADS;
        ServerSocketChannel server = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])), BACKLOG);
        byte[] random = new byte[1 << 20];
        new Random(42).nextBytes(random);
        ByteBuffer payload =
                ByteBuffer.allocateDirect(random.length).put(random).flip().asReadOnlyBuffer();
        PeerLoop[] loops = new PeerLoop[threads];
        for (int i = 0; i < threads; i++) {
            loops[i] = new PeerLoop(payload);
            daemon(loops[i], "peer-loop-" + i);
        }
        daemon(() -> accept(server, loops), "peer-accept");
        System.out.println("READY " + ((InetSocketAddress) server.getLocalAddress()).getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the parent to close our input
        }
        server.close();
    }

    private static void accept(ServerSocketChannel server, PeerLoop[] loops) {
        for (int next = 0; server.isOpen(); next = (next + 1) % loops.length) {
            try {
                SocketChannel channel = server.accept();
                loops[next].adopt(channel);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
