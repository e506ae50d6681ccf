package io.zerocopy.benchmarks.scale;

import java.io.IOException;

/**
 * The peer processes of one benchmark run, started when first needed and kept for all its cells:
 * one on 127.0.0.1 (file → loopback, socket → file) and one in the veth namespace.
 */
final class Peers implements AutoCloseable {
    private Peer loopback;
    private Peer veth;

    /** The peer for {@code pair}. */
    Peer of(Pair pair) throws IOException, InterruptedException {
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
    public void close() throws IOException {
        try {
            if (loopback != null) {
                loopback.close();
            }
        } finally {
            if (veth != null) {
                veth.close();
            }
        }
    }
}
