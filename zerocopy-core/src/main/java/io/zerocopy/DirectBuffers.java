package io.zerocopy;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A small shared pool of direct buffers for the buffered strategy.
 *
 * <p>{@code ByteBuffer.allocateDirect} zeroes the memory, reserves it against
 * {@code -XX:MaxDirectMemorySize} and registers a cleaner: for a 256 KiB buffer that cost more than
 * the whole copy of a small file (about 0.7 ms against 0.1 ms for a 64 KiB transfer to a wrapper
 * channel, measured on the development machine). The pool keeps a few released buffers for the next
 * transfer. It is a fixed array of slots rather than a thread-local, so that many (virtual) threads
 * do not each pin a buffer: at most {@link #SLOTS} buffers of at most {@link #MAX_POOLED_BYTES} are
 * kept.
 */
final class DirectBuffers {

    /** Two buffers per core: enough for every core to run a transfer while another is being set up. */
    static final int SLOTS = Math.min(16, 2 * Runtime.getRuntime().availableProcessors());

    /** Larger buffers than 4 MiB are rare (an explicit bufferSize) and are not kept. */
    static final int MAX_POOLED_BYTES = 4 << 20;

    private static final AtomicReferenceArray<ByteBuffer> POOL = new AtomicReferenceArray<>(SLOTS);

    private DirectBuffers() {
    }

    /**
     * A cleared direct buffer of at least {@code size} bytes, pooled or new. A new one has exactly
     * {@code size} bytes, so callers should ask for their usual size rather than the size of one
     * small transfer, or the pool fills with buffers too small for the next.
     */
    static ByteBuffer acquire(int size) {
        for (int i = 0; i < SLOTS; i++) {
            ByteBuffer b = POOL.get(i);
            if (b != null && b.capacity() >= size && POOL.compareAndSet(i, b, null)) {
                return b.clear();
            }
        }
        return ByteBuffer.allocateDirect(size);
    }

    /**
     * Returns a buffer from {@link #acquire} to the pool; the caller must not use it afterwards. It
     * takes an empty slot, or else the slot of a smaller buffer, so that a burst of transfers with a
     * small buffer size cannot leave the pool unable to serve the usual size for good.
     */
    static void release(ByteBuffer buffer) {
        if (buffer.capacity() > MAX_POOLED_BYTES) {
            return;
        }
        for (int i = 0; i < SLOTS; i++) {
            if (POOL.get(i) == null && POOL.compareAndSet(i, null, buffer)) {
                return;
            }
        }
        for (int i = 0; i < SLOTS; i++) {
            ByteBuffer pooled = POOL.get(i);
            if (pooled != null && pooled.capacity() < buffer.capacity() && POOL.compareAndSet(i, pooled, buffer)) {
                return;
            }
        }
    }
}
