package io.zerocopy;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Files kept open for reading between requests, as nginx's {@code open_file_cache}: a server that
 * sends the same few files over and over opens each once, not once per request. It hands out the
 * same {@link OpenFile} that {@link OpenFile#open} and {@link OpenDirectory#openBeneath} give, whose
 * {@link OpenFile#close() close} gives it back.
 *
 * <pre>{@code
 * long size = 0;
 * try (OpenFileCache cache = OpenFileCache.create(1000, Duration.ofSeconds(2));
 *         OpenDirectory root = OpenDirectory.open(Path.of("/srv/www"))) {
 *     for (int request = 0; request < 3; request++) { // the second and third cost no open
 *         try (OpenFile file = cache.openBeneath(root, List.of("docs", "index.html"))) {
 *             size += file.attributes().size(); // then send file.channel() at positions, as OpenFile shows
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p><b>How stale a file may be.</b> A file is opened as {@link OpenFile#open} opens it (natively
 * where it can) and looked at again, by opening its name the same way (beneath the directory for
 * {@link #openBeneath}, never by a joined path), when an open comes {@code validity} or more after
 * its last look. If it is another file by then (replaced by a rename: another inode), or its size or
 * modification time changed, it is opened afresh; if the open fails ({@code NoSuchFileException}, a
 * link now refused, ...), the entry goes and the failure is thrown, as the open would throw it. So an
 * open that starts {@code validity} or more after a change sees it; before that, it may get the file
 * as it was: one replaced by a rename is then the old file, whole (its descriptor keeps it), never a
 * mix; one written in place is read as it is now, at the size of the last look, so a file that shrank
 * is still a {@link TruncatedSourceException} when sent. A shortage of descriptors at a look
 * ({@link ResourceShortageException}) is thrown and keeps the entry. {@link Duration#ZERO} looks at
 * every open (the descriptor is still reused while the file is unchanged).
 *
 * <p><b>What it holds.</b> Regular files only: a directory is handed out uncached, as opened (its
 * close closes it); a FIFO, a device or a socket is refused as {@link OpenFile#open} refuses it. At
 * most {@code maxOpenFiles} files stay open for the cache; when an open would hold more, the least
 * recently used go, with an eighth of the bound more so that the next few opens need no eviction
 * (use is kept to the millisecond, so files used within one are in no set order). An evicted or
 * replaced file closes when its last lease is closed, so at most {@code maxOpenFiles} files are
 * open for it, plus one per lease not yet closed or open under way.
 *
 * <p><b>Who owns what.</b> The caller owns each {@link OpenFile} it gets and closes it, once it
 * no longer reads it; the channel belongs to the cache and is shared by every holder of the file,
 * its position too. So read it at positions only: {@link FileRegion}, {@code read(ByteBuffer, long)},
 * {@link Transfers#copy(java.nio.channels.FileChannel, long, long, java.nio.channels.WritableByteChannel)};
 * {@code read(ByteBuffer)} and the {@link Transfers} verbs that take a {@code ReadableByteChannel}
 * read from the position and move it, which leaves the next holder at the end of the file or
 * mid-way. Never close the channel itself: that ends it for every holder, and the cache opens the
 * file afresh once it sees the channel closed. A JDK channel is also closed by an interrupt of a
 * thread in one of its reads; the library's own channel (native open) is not. A lease dropped
 * unclosed holds its file open until the file has left the cache and its channel cannot be
 * reached; the channel's cleaner then closes it, and the cache takes it and the lost leases off
 * {@link #stats()} and logs a warning naming the file. {@link #close()} closes the files no one
 * holds and the rest as their leases close; an open after that is not cached. Thread-safe: a hit
 * takes no lock (a map read and a compare-and-set on the entry).
 */
public final class OpenFileCache implements Closeable {

    private final int maxOpenFiles;
    private final Duration validity;
    private final long validNanos;
    private final ConcurrentHashMap<Key, CachedFile> entries = new ConcurrentHashMap<>();
    /** Entries in {@link #entries}: what the bound counts. */
    private final AtomicInteger cached = new AtomicInteger();
    /** Taken only when the bound is passed, to evict a batch at once. */
    private final ReentrantLock evicting = new ReentrantLock();

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder reopens = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder leases = new LongAdder();
    private final AtomicInteger openFiles = new AtomicInteger();
    private volatile boolean closed;

    /** What a file is cached by: how it is opened ({@link #FOLLOW}, {@link #NOFOLLOW} or a directory) and its name there. */
    record Key(Object scope, Object name) {}

    private static final Object FOLLOW = "follow links";
    private static final Object NOFOLLOW = "no link at the last step";

    private OpenFileCache(int maxOpenFiles, Duration validity) {
        this.maxOpenFiles = maxOpenFiles;
        this.validity = validity;
        this.validNanos = validity.compareTo(Duration.ofDays(365)) > 0 ? Long.MAX_VALUE / 4 : validity.toNanos();
    }

    /**
     * A cache that holds at most {@code maxOpenFiles} files open, each looked at again when opened
     * {@code validity} or more after its last look.
     *
     * @param maxOpenFiles at least 1; a server sizes it within its descriptor limit
     * @param validity how long a file is handed out without a look; zero to look at every open
     * @throws IllegalArgumentException if {@code maxOpenFiles} is below 1 or {@code validity} negative
     */
    public static OpenFileCache create(int maxOpenFiles, Duration validity) {
        Objects.requireNonNull(validity, "validity");
        if (maxOpenFiles < 1) {
            throw new IllegalArgumentException("maxOpenFiles: " + maxOpenFiles + " (expected: >= 1)");
        }
        if (validity.isNegative()) {
            throw new IllegalArgumentException("validity: " + validity + " (expected: >= 0)");
        }
        return new OpenFileCache(maxOpenFiles, validity);
    }

    /**
     * The file at {@code path}, as {@link OpenFile#open(Path, LinkOption...)} opens it, from the cache
     * where it is there and valid. Throws what that open throws.
     *
     * @param options {@link LinkOption#NOFOLLOW_LINKS} to refuse a symbolic link at the last step;
     *     cached apart from the same path opened following links
     */
    public OpenFile open(Path path, LinkOption... options) throws IOException {
        Objects.requireNonNull(path, "path");
        boolean followLinks = true;
        for (LinkOption option : options) {
            followLinks &= Objects.requireNonNull(option, "options") != LinkOption.NOFOLLOW_LINKS;
        }
        return lease(new Key(followLinks ? FOLLOW : NOFOLLOW, path));
    }

    /**
     * The file at {@code segments} beneath {@code directory}, as {@link OpenDirectory#openBeneath}
     * opens it (no symbolic link at any step, race-free), from the cache where it is there and
     * valid; each look at it opens it beneath the directory again. Throws what that open throws; a
     * closed directory throws {@link java.nio.channels.ClosedChannelException}, hit or not.
     */
    public OpenFile openBeneath(OpenDirectory directory, List<String> segments) throws IOException {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(segments, "segments");
        return lease(new Key(directory, segments));
    }

    private OpenFile lease(Key key) throws IOException {
        long now = System.nanoTime();
        CachedFile entry = closed ? null : entries.get(key);
        if (entry != null && entry.isValid(now, validNanos) && entry.isUsable() && scopeOpen(key)) {
            OpenFile lease = entry.lease(now);
            if (lease != null) {
                hits.increment();
                return lease;
            }
        }
        return look(key, entry, now);
    }

    /** Opens the file, then keeps the entry if the file is unchanged, or caches the file just opened. */
    private OpenFile look(Key key, CachedFile entry, long now) throws IOException {
        OpenFile fresh;
        try {
            fresh = openAfresh(key);
        } catch (ResourceShortageException e) {
            throw e; // says nothing about the file: the entry stays
        } catch (IOException | RuntimeException | Error e) {
            if (entry != null) {
                retire(entry);
            }
            throw e;
        }
        if (closed || !fresh.attributes().isRegularFile()) {
            if (entry != null && !closed) {
                retire(entry); // a directory now: never cached
            }
            return fresh;
        }
        if (entry != null && entry.isUsable() && entry.sameFile(fresh.attributes())) {
            OpenFile lease = entry.lease(now);
            if (lease != null) {
                entry.checked(now);
                closeQuietly(fresh);
                hits.increment();
                return lease;
            }
        }
        return install(key, fresh, entry, now);
    }

    private OpenFile install(Key key, OpenFile fresh, CachedFile previous, long now) {
        Key stored =
                key.scope() instanceof OpenDirectory ? new Key(key.scope(), List.copyOf((List<?>) key.name())) : key;
        CachedFile created = new CachedFile(stored, fresh, now, this);
        openFiles.incrementAndGet();
        OpenFile lease = created.lease(now); // never null: the cache's hold is there
        CachedFile replaced = entries.put(stored, created);
        if (replaced != null) {
            replaced.dropCacheHold(); // unmapped already: closes with its last lease
        } else {
            cached.incrementAndGet();
        }
        (previous != null ? reopens : misses).increment();
        if (closed) {
            retire(created); // close() may have swept before this put
        } else if (cached.get() > maxOpenFiles) {
            evict();
        }
        return lease;
    }

    /** Removes the entry if it is still the one cached, and drops the cache's hold on it; true if it removed it. */
    boolean retire(CachedFile entry) {
        boolean removed = entries.remove(entry.key, entry);
        if (removed) {
            cached.decrementAndGet();
        }
        entry.dropCacheHold();
        return removed;
    }

    /**
     * Evicts the least recently used entries until an eighth of the bound is free, so that the scan
     * (and the lock) comes once per that many new files rather than at each.
     */
    private void evict() {
        evicting.lock();
        try {
            int excess = cached.get() - maxOpenFiles;
            if (excess <= 0) {
                return;
            }
            // each entry's last use read once: hits move it meanwhile, and a sort on a moving key
            // breaks the comparator's contract (TimSort throws)
            List<Used> all = new ArrayList<>(cached.get() + 16);
            for (CachedFile entry : entries.values()) {
                all.add(new Used(entry.lastUsed(), entry));
            }
            all.sort(Comparator.comparingLong(Used::at));
            int goal = Math.min(all.size(), excess + maxOpenFiles / 8);
            for (int i = 0; i < all.size() && goal > 0; i++) {
                if (retire(all.get(i).entry())) {
                    evictions.increment();
                    goal--;
                }
            }
        } finally {
            evicting.unlock();
        }
    }

    /** An entry and its last use, as read when an eviction began. */
    private record Used(long at, CachedFile entry) {}

    private static OpenFile openAfresh(Key key) throws IOException {
        Object scope = key.scope();
        if (scope == FOLLOW) {
            return OpenFile.open((Path) key.name());
        }
        if (scope == NOFOLLOW) {
            return OpenFile.open((Path) key.name(), LinkOption.NOFOLLOW_LINKS);
        }
        @SuppressWarnings("unchecked")
        List<String> segments = (List<String>) key.name();
        return ((OpenDirectory) scope).openBeneath(segments);
    }

    /** Whether what the key opens from is still open: nothing is served beneath a closed directory. */
    private static boolean scopeOpen(Key key) {
        return !(key.scope() instanceof OpenDirectory) || ((OpenDirectory) key.scope()).isOpen();
    }

    static void closeQuietly(OpenFile file) {
        try {
            file.close();
        } catch (IOException ignored) {
            // opened for reading only: nothing a failed close could lose
        }
    }

    void leased(int change) {
        leases.add(change);
    }

    void closedOne() {
        openFiles.decrementAndGet();
    }

    /** The most files it keeps open for itself, leases aside. */
    public int maxOpenFiles() {
        return maxOpenFiles;
    }

    /** How long a file is handed out without a look. */
    public Duration validity() {
        return validity;
    }

    /** What it has done and holds now, read without stopping it (each figure read on its own). */
    public Stats stats() {
        return new Stats(hits.sum(), misses.sum(), reopens.sum(), evictions.sum(), openFiles.get(), (int) leases.sum());
    }

    /**
     * Closes the files no one holds now; the others close as their leases are closed. Opens after
     * this are not cached. Closing again does nothing.
     */
    @Override
    public void close() {
        closed = true;
        for (CachedFile entry : entries.values()) {
            retire(entry);
        }
    }

    @Override
    public String toString() {
        return "OpenFileCache{max " + maxOpenFiles + ", valid " + validity + ", " + openFiles.get() + " open"
                + (closed ? ", closed" : "") + "}";
    }

    /**
     * A snapshot of an {@link OpenFileCache}'s counters since it was created.
     *
     * @param hits opens served from an open file, without a look or after one that found it unchanged
     * @param misses opens of a file not cached, which then was
     * @param reopens files cached and opened afresh, because a look found them changed (replaced,
     *     resized, modified) or their channel closed while a lease was out (closed with the last
     *     lease, the file has left the cache, and its next open is a miss)
     * @param evictions files let go to stay within the bound
     * @param openFiles descriptors open for it now: those cached and those let go but still leased
     * @param leases files handed out and not yet closed (one dropped unclosed counts until its cleaner runs)
     */
    public record Stats(long hits, long misses, long reopens, long evictions, int openFiles, int leases) {}
}
