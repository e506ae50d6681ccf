package io.zerocopy.benchmarks.scale;

import java.io.IOException;

/**
 * The peer processes of one benchmark run, started when first needed and kept for all its cells:
 * one on 127.0.0.1 (file → loopback, socket → file) and one in the veth namespace. They are also
 * stopped, and the namespace removed, when the JVM is told to exit (Ctrl-C, SIGTERM).
 */
final class Peers implements AutoCloseable {
    private final Thread onExit = new Thread(this::closeQuietly, "scale-peers-cleanup");
    private Peer loopback;
    private Peer veth;

    Peers() {
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /** The peer for {@code pair}. */
    synchronized Peer of(Pair pair) throws IOException, InterruptedException {
        if (pair == Pair.VETH) {
            if (veth == null) {
                veth = Peer.veth();
            }
            return veth;
        }
        if (loopback == null) {
            loopback = Peer.loopback();
        }
        return loopback;
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            if (loopback != null) {
                loopback.close();
                loopback = null;
            }
        } finally {
            if (veth != null) {
                veth.close();
                veth = null;
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            System.err.println("could not stop the peers: " + e);
        }
    }
}
