package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Comparator;
import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * One selector thread of the {@link PeerServer}: drives the connections handed to it, and keeps a
 * connection that is pausing (slow phase) out of the selector until its pause is over.
 */
final class PeerLoop implements Runnable {
    private final Selector selector;
    private final Queue<SocketChannel> adopted = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<PeerConnection> paused = new PriorityQueue<>(Comparator.comparingLong(c -> c.resumeAt));
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(PeerProtocol.CHUNK);
    private final ByteBuffer payload;

    PeerLoop(ByteBuffer payload) throws IOException {
        this.selector = Selector.open();
        this.payload = payload;
    }

    /** Hands a new connection to this loop; any thread. */
    void adopt(SocketChannel channel) {
        adopted.add(channel);
        selector.wakeup();
    }

    @Override
    public void run() {
        try {
            while (selector.isOpen()) {
                long timeout = 0;
                if (!paused.isEmpty()) {
                    timeout = Math.max(1, TimeUnit.NANOSECONDS.toMillis(paused.peek().resumeAt - System.nanoTime()));
                }
                selector.select(timeout);
                register();
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    serve((PeerConnection) key.attachment());
                }
                resume();
            }
        } catch (IOException e) {
            System.err.println("peer loop stopped: " + e);
        }
    }

    private void register() {
        for (SocketChannel channel; (channel = adopted.poll()) != null; ) {
            PeerConnection connection = new PeerConnection(channel);
            try {
                channel.configureBlocking(false);
                connection.key = channel.register(selector, connection.interest(), connection);
            } catch (IOException e) {
                close(connection);
            }
        }
    }

    private void serve(PeerConnection connection) {
        try {
            long pause = connection.onReady(scratch, payload);
            if (pause < 0) {
                close(connection);
            } else if (pause > 0) {
                connection.key.interestOps(0);
                connection.resumeAt = System.nanoTime() + pause;
                paused.add(connection);
            } else {
                connection.key.interestOps(connection.interest());
            }
        } catch (IOException | RuntimeException e) {
            // the sender went away or broke the protocol: drop the connection, serve the others
            close(connection);
        }
    }

    private void resume() {
        long now = System.nanoTime();
        while (!paused.isEmpty() && paused.peek().resumeAt <= now) {
            PeerConnection connection = paused.poll();
            if (connection.key.isValid()) {
                connection.key.interestOps(connection.interest());
            }
        }
    }

    private static void close(PeerConnection connection) {
        try {
            connection.channel.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
