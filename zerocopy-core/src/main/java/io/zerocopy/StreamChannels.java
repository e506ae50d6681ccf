package io.zerocopy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;

/**
 * Channel views of the caller's streams. Unlike {@code Channels.newChannel}, they pass a heap
 * buffer's array straight to the stream (no second copy through an 8 KiB chunk), and closing the
 * view never closes the stream: the caller owns it.
 */
final class StreamChannels {
    private StreamChannels() {}

    /** Temporary array for the rare direct buffer handed to a view (a forced mmap, a third-party strategy). */
    private static final int DIRECT_CHUNK = 8192;

    /** What both views share: an open flag that closing the view clears, and the chunk for direct buffers. */
    private abstract static class View<S> implements Channel {
        final S stream;
        private boolean open = true;
        private byte[] chunk;

        View(S stream) {
            this.stream = stream;
        }

        final void ensureOpen() throws ClosedChannelException {
            if (!open) {
                throw new ClosedChannelException();
            }
        }

        final byte[] chunk() {
            if (chunk == null) {
                chunk = new byte[DIRECT_CHUNK];
            }
            return chunk;
        }

        @Override
        public final boolean isOpen() {
            return open;
        }

        /** Closes this view only; the stream stays open. */
        @Override
        public final void close() {
            open = false;
        }

        @Override
        public final String toString() {
            return "stream " + stream;
        }
    }

    static final class Input extends View<InputStream> implements ReadableByteChannel {
        Input(InputStream in) {
            super(in);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            ensureOpen();
            if (!dst.hasRemaining()) {
                return 0;
            }
            if (dst.hasArray()) {
                int n = stream.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
                if (n > 0) {
                    dst.position(dst.position() + n);
                }
                return n;
            }
            byte[] chunk = chunk();
            int n = stream.read(chunk, 0, Math.min(chunk.length, dst.remaining()));
            if (n > 0) {
                dst.put(chunk, 0, n);
            }
            return n;
        }
    }

    static final class Output extends View<OutputStream> implements WritableByteChannel {
        Output(OutputStream out) {
            super(out);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            ensureOpen();
            int n = src.remaining();
            if (src.hasArray()) {
                stream.write(src.array(), src.arrayOffset() + src.position(), n);
                src.position(src.limit());
                return n;
            }
            // One chunk per call keeps the count exact if reading a mapped file that shrank faults;
            // the chunk is cleared first so that a fault HotSpot reports late passes on zeros, as
            // MappedStrategy documents, not the previous chunk's bytes.
            byte[] chunk = chunk();
            int len = Math.min(chunk.length, n);
            Arrays.fill(chunk, 0, len, (byte) 0);
            src.get(chunk, 0, len);
            stream.write(chunk, 0, len);
            return len;
        }
    }
}
