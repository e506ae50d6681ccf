package io.zerocopy.tests;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * A target that takes at most {@link #MOST_PER_TAKE} bytes at a write, and only once {@code pace}
 * has passed since it last took any (its first write takes at once); every other write takes
 * nothing, after {@code refusal} (zero: at once). It decides by the time the write is called, so
 * what it does does not depend on how the threads are scheduled. Counts and hashes what it took;
 * for one writing thread.
 */
final class PacedTarget implements WritableByteChannel {
    /** 4 KiB. */
    static final int MOST_PER_TAKE = 4096;

    private final long paceNanos;
    private final long refusalNanos;
    private final CRC32C crc = new CRC32C();
    private long lastTake;
    private long bytes;
    private int takes;
    private int refusals;

    PacedTarget(Duration pace) {
        this(pace, Duration.ZERO);
    }

    /**
     * {@code refusal}: how long a write that takes nothing lasts, as if the writing thread had been
     * paused right after calling it (the behaviour under test, not synchronisation).
     */
    PacedTarget(Duration pace, Duration refusal) {
        this.paceNanos = pace.toNanos();
        this.refusalNanos = refusal.toNanos();
    }

    @Override
    public int write(ByteBuffer src) {
        long now = System.nanoTime();
        if (!src.hasRemaining()) {
            return 0;
        }
        if (takes > 0 && now - lastTake < paceNanos) {
            refusals++;
            for (long end = now + refusalNanos; System.nanoTime() < end; ) {
                LockSupport.parkNanos(end - System.nanoTime());
            }
            return 0;
        }
        ByteBuffer taken = src.slice();
        taken.limit(Math.min(taken.remaining(), MOST_PER_TAKE));
        crc.update(taken);
        int n = taken.position();
        src.position(src.position() + n);
        bytes += n;
        takes++;
        lastTake = now;
        return n;
    }

    long bytes() {
        return bytes;
    }

    long crc32c() {
        return crc.getValue();
    }

    /** Writes that took bytes. */
    int takes() {
        return takes;
    }

    /** Writes with bytes to give that took none. */
    int refusals() {
        return refusals;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {}
}
