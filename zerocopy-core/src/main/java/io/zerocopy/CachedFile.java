package io.zerocopy;

import java.io.Closeable;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * One file an {@link OpenFileCache} holds open, and the leases on it. The descriptor is closed
 * when the last hold goes: the cache's own (dropped when the entry is evicted, replaced or the cache
 * closes) or a lease's; so a holder's call never lands on a number the kernel gave out again. A
 * lease dropped without its close keeps a hold for ever: once the file is out of the cache and its
 * channel cannot be reached, a cleaner takes it and the lost leases off the counts and says so.
 * Thread-safe, without locks.
 */
final class CachedFile {
    /** Recency is written at most this often, so that many threads' hits on a hot file do not all write it. */
    private static final long TOUCH_NANOS = 1_000_000;

    final OpenFileCache.Key key;
    final OpenFile file;
    private final OpenFileCache cache;
    /** The cache's hold (until {@link #dropCacheHold}) plus one per lease; 0 once the file is closed. */
    private final AtomicInteger holds = new AtomicInteger(1);

    private final AtomicBoolean cacheHoldDropped = new AtomicBoolean();
    /** Registered when the cache lets go of a file still leased, so that a dropped lease cannot count for ever. */
    private volatile Cleaner.Cleanable watch;
    /** {@link System#nanoTime()} before the last open or look that found the file as it is. */
    private volatile long checkedAt;
    /** {@link System#nanoTime()} of a recent lease, within {@link #TOUCH_NANOS}: what eviction goes by. */
    private volatile long lastUsed;

    CachedFile(OpenFileCache.Key key, OpenFile file, long now, OpenFileCache cache) {
        this.key = key;
        this.file = file;
        this.cache = cache;
        this.checkedAt = now;
        this.lastUsed = now;
    }

    /** Whether the file was looked at less than {@code validNanos} before {@code now}. */
    boolean isValid(long now, long validNanos) {
        return now - checkedAt < validNanos;
    }

    /** A look that began at {@code now} found the file as it is. */
    void checked(long now) {
        if (now - checkedAt > 0) {
            checkedAt = now;
        }
    }

    long lastUsed() {
        return lastUsed;
    }

    /** Whether the file's channel is still open: a holder that closed it (or an interrupt) ends it for all. */
    boolean isUsable() {
        return file.channel().isOpen();
    }

    /**
     * Whether {@code now} (attributes from a fresh open of the same name) describe this file as it was
     * opened: the same file key (inode), size and modification time, so the cached descriptor reads
     * exactly what the fresh one would.
     */
    boolean sameFile(BasicFileAttributes now) {
        BasicFileAttributes then = file.attributes();
        return Objects.equals(then.fileKey(), now.fileKey())
                && then.size() == now.size()
                && then.lastModifiedTime().equals(now.lastModifiedTime())
                && now.isRegularFile();
    }

    /** A lease on the file, used at {@code now}; null if the file was closed meanwhile (its last hold went). */
    OpenFile lease(long now) {
        if (holds.getAndUpdate(h -> h == 0 ? 0 : h + 1) == 0) {
            return null; // closed: a hold is never taken back from 0
        }
        if (now - lastUsed > TOUCH_NANOS) {
            lastUsed = now;
        }
        cache.leased(1);
        return new OpenFile(file.path(), file.channel(), file.attributes(), new Lease());
    }

    /** Drops the cache's own hold, once: the file closes now if no lease holds it, else with the last lease. */
    void dropCacheHold() {
        if (cacheHoldDropped.compareAndSet(false, true) && !release()) {
            // Leased still, and out of the cache: watched through the channel, which every lease
            // refers to. A cache miss registers nothing; a file evicted while sent registers once.
            watch = Cleaners.register(file.channel(), new Forgotten(holds, cache, file.path()));
        }
    }

    /** Gives a hold back; true if it was the last, and the file is closed. */
    private boolean release() {
        if (holds.decrementAndGet() != 0) {
            return false;
        }
        try {
            OpenFileCache.closeQuietly(file);
        } finally {
            cache.closedOne();
        }
        Cleaner.Cleanable registered = watch;
        if (registered != null) {
            registered.clean(); // off the cleaner's list; its run does nothing now
        }
        return true;
    }

    @Override
    public String toString() {
        return file.path() + " (" + holds.get() + " holds)";
    }

    /**
     * The count of a file out of the cache whose channel became unreachable with leases never
     * closed: run by the cleaner then (the channel's own cleaner closes the descriptor, the JDK's or
     * the native file's), it takes the file and the lost leases off the counts and warns, naming the
     * file. Keyed to the channel, not the entry, so a caller that dropped its lease but still reads
     * the channel is not cut off. Refers to neither.
     */
    private static final class Forgotten implements Runnable {
        private final AtomicInteger holds;
        private final OpenFileCache cache;
        private final Path path;

        Forgotten(AtomicInteger holds, OpenFileCache cache, Path path) {
            this.holds = holds;
            this.cache = cache;
            this.path = path;
        }

        @Override
        public void run() {
            // Unreachable, nothing can give a hold back or take one now: what is left was lost.
            int lost = holds.getAndSet(0);
            if (lost == 0) {
                return; // the last hold was given back, and closed the file
            }
            cache.leased(-lost);
            cache.closedOne();
            LoggerFactory.getLogger(OpenFileCache.class)
                    .warn(
                            "{} lease(s) from an OpenFileCache were never closed; the file is closed now that"
                                    + " its channel cannot be reached: {}",
                            lost,
                            path);
        }
    }

    /** What a lease's {@link OpenFile#close()} closes: gives its hold back, once. */
    private final class Lease implements Closeable {
        private final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                if (!isUsable()) {
                    cache.retire(CachedFile.this); // its holder closed the channel: the next open opens afresh
                }
                cache.leased(-1);
                release();
            }
        }
    }
}
