package io.zerocopy.benchmarks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/** The far ends of the splice runs: N connections at once, each writing its bytes from memory. */
final class MemorySenders {
    private MemorySenders() {}

    /**
     * Runs N senders to {@code address} at once, each writing {@code each} bytes and closing; with
     * {@code receiverProtocol}, as {@link Receiver} expects, a size header first and then a wait for
     * its one-byte acknowledgement. Returns the seconds until the last sender finished.
     */
    static double send(InetSocketAddress address, int n, long each, boolean receiverProtocol) throws Exception {
        List<Thread> senders = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < n; i++) {
            senders.add(daemon(() -> {
                try (SocketChannel socket = SocketChannel.open(address)) {
                    if (receiverProtocol) {
                        Receiver.announce(socket, each);
                    }
                    ByteBuffer data = ByteBuffer.allocateDirect(1 << 20);
                    for (long left = each; left > 0; ) {
                        data.clear().limit((int) Math.min(data.capacity(), left));
                        while (data.hasRemaining()) {
                            left -= socket.write(data);
                        }
                    }
                    if (receiverProtocol && socket.read(ByteBuffer.allocate(1)) != 1) {
                        throw new IOException("no acknowledgement");
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : senders) {
            t.join();
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /** Starts {@code body} on a new daemon platform thread. */
    static Thread daemon(Runnable body) {
        Thread t = new Thread(body);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
