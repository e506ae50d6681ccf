package io.zerocopy;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/** A channel standing for a socket whose peer is not on this host (it is no {@code SocketChannel} at all). */
final class NowhereSocket implements WritableByteChannel {
    @Override
    public int write(ByteBuffer src) {
        throw new UnsupportedOperationException("never written in a selection test");
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {}
}
