package io.zerocopy.benchmarks;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Targets that take every byte and keep none, for measurements that are about the copy and not the
 * target. Neither is the JDK's own channel, so the library treats both as a wrapper channel. Both
 * stay open: {@code close()} does nothing. Not thread-safe.
 */
public final class Sinks {
    private Sinks() {}

    /** Takes every byte without reading it: what is left to measure is the copier's own work. */
    public static WritableByteChannel discarding() {
        return new Discarding();
    }

    /**
     * Reads every byte into a 16 KiB array and drops it: the stand-in for TLS or compression, which
     * read each byte in user space.
     */
    public static WritableByteChannel readingEveryByte() {
        return new ReadingEveryByte();
    }

    private abstract static class Sink implements WritableByteChannel {
        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    private static final class Discarding extends Sink {
        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }
    }

    private static final class ReadingEveryByte extends Sink {
        private final byte[] chunk = new byte[16384];

        @Override
        public int write(ByteBuffer src) {
            int n = Math.min(src.remaining(), chunk.length);
            src.get(chunk, 0, n);
            return n;
        }
    }
}
