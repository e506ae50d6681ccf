package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/** The write that every step draining a buffer makes: part of what it holds, within the step's allowance. */
final class Writes {
    private Writes() {}

    /**
     * One write of at most {@code maxBytes} of what {@code buffer} holds (drain mode); the buffer
     * keeps the rest for the next step. Short counts are normal.
     */
    static int atMost(WritableByteChannel target, ByteBuffer buffer, long maxBytes) throws IOException {
        int limit = buffer.limit();
        if (buffer.remaining() > maxBytes) {
            buffer.limit(buffer.position() + (int) maxBytes);
        }
        try {
            return target.write(buffer);
        } finally {
            buffer.limit(limit);
        }
    }
}
