package io.zerocopy.micrometer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A target that accepts at most {@code chunk} bytes per write and {@code limit} bytes in all, then
 * throws on the next write; or, with no limit, accepts everything. Counts what it accepted. A
 * plain {@link WritableByteChannel}, so the engine cannot hand it to the kernel.
 */
final class FailingTarget implements WritableByteChannel {
    private final int chunk;
    private final long limit;
    private long accepted;
    private boolean open = true;

    private FailingTarget(int chunk, long limit) {
        this.chunk = chunk;
        this.limit = limit;
    }

    /** Fails on the first write after {@code limit} bytes, taking at most {@code chunk} per write. */
    static FailingTarget failingAfter(long limit, int chunk) {
        return new FailingTarget(chunk, limit);
    }

    /** Never fails. */
    static FailingTarget accepting() {
        return new FailingTarget(64 * 1024, Long.MAX_VALUE);
    }

    @Override
    public synchronized int write(ByteBuffer src) throws IOException {
        if (!open) {
            throw new IOException("closed");
        }
        if (accepted >= limit) {
            throw new IOException("disk on fire after " + accepted + " bytes");
        }
        int n = (int) Math.min(Math.min(chunk, src.remaining()), limit - accepted);
        src.position(src.position() + n);
        accepted += n;
        return n;
    }

    synchronized long accepted() {
        return accepted;
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() {
        open = false;
    }

    @Override
    public String toString() {
        return "FailingTarget{chunk=" + chunk + ", limit=" + limit + "}";
    }
}
