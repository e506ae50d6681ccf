package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.Channel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A channel as the JDK's {@code transferTo} and {@code transferFrom} reach it through a buffer of
 * their own (a target other than a JDK file, socket or pipe; any source but a file). Those loops
 * return the bytes moved before a failure and drop the failure, so a stream that fails once would
 * lose or repeat bytes unseen. This keeps the failure, and the step throws it at its next move,
 * once the bytes before it are counted. Not thread-safe; one per step.
 */
final class KeptFailure implements ByteChannel {
    private final Channel channel;
    private IOException failure;

    KeptFailure(Channel channel) {
        this.channel = channel;
    }

    /** Throws the failure the last transfer call dropped, if it dropped one. */
    void rethrow() throws IOException {
        IOException e = failure;
        if (e != null) {
            failure = null;
            throw e;
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        try {
            return ((ReadableByteChannel) channel).read(dst);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        try {
            return ((WritableByteChannel) channel).write(src);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    /** The caller's channel is not the library's to close. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return channel.toString();
    }
}
