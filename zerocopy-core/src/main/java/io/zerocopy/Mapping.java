package io.zerocopy;

import java.nio.ByteBuffer;

/**
 * A mapped file region and the means to unmap it, as {@link Mappings} made it on this JDK. Closing
 * it twice is harmless; the buffer must not be touched after the first close. Not thread-safe.
 */
final class Mapping implements AutoCloseable {
    private final ByteBuffer buffer;
    private Runnable release;

    Mapping(ByteBuffer buffer, Runnable release) {
        this.buffer = buffer;
        this.release = release;
    }

    ByteBuffer buffer() {
        return buffer;
    }

    /** Unmaps the region; the buffer must not be touched afterwards. */
    @Override
    public void close() {
        Runnable r = release;
        release = null;
        if (r != null) {
            r.run();
        }
    }
}
