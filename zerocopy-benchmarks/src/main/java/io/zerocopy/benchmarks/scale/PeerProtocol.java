package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The header a sender writes on every connection to a {@link PeerServer}: what the peer does on
 * it, how many bytes, and how slowly at first.
 *
 * <pre>
 * byte  mode             'R': read size bytes 16 KiB at a time, then answer one byte
 *                        'S': wait for one byte from the sender (its start signal), then send
 *                        size bytes, then shut the output down
 * long  size
 * long  slowBytes        the first slowBytes are read (or sent) 16 KiB at a time with a pause after each
 * int   slowPauseMicros
 * </pre>
 */
final class PeerProtocol {
    static final int HEADER_BYTES = 1 + 8 + 8 + 4;
    static final byte RECEIVE = 'R';
    static final byte SEND = 'S';
    /** The receivers' read size, and the write size of a slow sender. */
    static final int CHUNK = 16 * 1024;

    private PeerProtocol() {}

    /** One connection's instructions. */
    record Message(byte mode, long size, long slowBytes, int slowPauseMicros) {

        ByteBuffer encode() {
            return ByteBuffer.allocate(HEADER_BYTES)
                    .put(mode)
                    .putLong(size)
                    .putLong(slowBytes)
                    .putInt(slowPauseMicros)
                    .flip();
        }

        static Message decode(ByteBuffer header) throws IOException {
            header.flip();
            byte mode = header.get();
            if (mode != RECEIVE && mode != SEND) {
                throw new IOException("mode: " + mode + " (expected: 'R' or 'S')");
            }
            return new Message(mode, header.getLong(), header.getLong(), header.getInt());
        }
    }
}
