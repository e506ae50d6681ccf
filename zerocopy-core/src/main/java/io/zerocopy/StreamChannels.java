package io.zerocopy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Channel views of the caller's streams. Unlike {@code Channels.newChannel}, they pass a heap
 * buffer's array straight to the stream (no second copy through an 8 KiB chunk), and closing the
 * view never closes the stream: the caller owns it.
 */
final class StreamChannels {
    private StreamChannels() {
    }

    /** Temporary array for the rare direct buffer handed to a view (a forced mmap, a third-party strategy). */
    private static final int DIRECT_CHUNK = 8192;

    static final class Input implements ReadableByteChannel {
        private final InputStream in;
        private boolean open = true;
        private byte[] chunk;

        Input(InputStream in) {
            this.in = in;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            if (!dst.hasRemaining()) {
                return 0;
            }
            if (dst.hasArray()) {
                int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
                if (n > 0) {
                    dst.position(dst.position() + n);
                }
                return n;
            }
            if (chunk == null) {
                chunk = new byte[DIRECT_CHUNK];
            }
            int n = in.read(chunk, 0, Math.min(chunk.length, dst.remaining()));
            if (n > 0) {
                dst.put(chunk, 0, n);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        /** Closes this view only; the stream stays open. */
        @Override
        public void close() {
            open = false;
        }

        @Override
        public String toString() {
            return "stream " + in;
        }
    }

    static final class Output implements WritableByteChannel {
        private final OutputStream out;
        private boolean open = true;
        private byte[] chunk;

        Output(OutputStream out) {
            this.out = out;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            int n = src.remaining();
            if (src.hasArray()) {
                out.write(src.array(), src.arrayOffset() + src.position(), n);
                src.position(src.limit());
                return n;
            }
            if (chunk == null) {
                chunk = new byte[DIRECT_CHUNK];
            }
            // One chunk per call: a short count is legal here, and it keeps the count exact if
            // reading the buffer fails part-way (a mapped file that shrank).
            int len = Math.min(chunk.length, n);
            src.get(chunk, 0, len);
            out.write(chunk, 0, len);
            return len;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        /** Closes this view only; the stream stays open. */
        @Override
        public void close() {
            open = false;
        }

        @Override
        public String toString() {
            return "stream " + out;
        }
    }
}
