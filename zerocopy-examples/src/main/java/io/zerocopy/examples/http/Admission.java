package io.zerocopy.examples.http;

import io.zerocopy.examples.FailedAccepts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Which new connections are served, which are answered 503, which are closed without a word, and
 * when the acceptor should not accept at all: the one admission rule of both engines.
 *
 * <p>Up to {@link #maxConnections()} are served at once: {@code --max-connections}, or fewer where
 * the process's descriptor limit cannot serve that many ({@link #allowedBy}). Past the operator's
 * limit, up to {@value #MAX_REFUSING} at a time get their 503, and the rest are dropped so that a
 * flood costs no more than a close each. Past the descriptor limit nothing more is accepted
 * ({@link #full()}): a connection waits in the listen backlog until a served one closes, as nginx
 * stops accepting when its connections run out, because even a 503 would take a descriptor that a
 * served connection needs to open its file. An accept that fails for lack of descriptors anyway
 * (something else in the process took them) pauses accepting for {@link FailedAccepts#PAUSE_NANOS}
 * rather than spinning. Thread-safe; {@link #admit} and {@link #full} are called by one accepting thread.
 */
final class Admission {

    /** Refused connections being answered 503 at once; beyond this they are closed without a word. */
    static final int MAX_REFUSING = 64;

    /**
     * Descriptors one served connection may hold at once: its socket, the file being sent (which the
     * cache of open files may have let go meanwhile), and two directories a race-free resolver holds
     * open on the way to it. The cache's own files are reserved apart ({@link #allowedBy}).
     */
    static final int DESCRIPTORS_PER_CONNECTION = 4;

    /**
     * Descriptors kept back beyond those open when the server starts, for what the JDK opens later
     * on its own: the virtual threads' pollers (an epoll descriptor and a wake-up each), jars of
     * classes first loaded while serving, {@code /dev/urandom}.
     */
    static final int RESERVE_MARGIN = 32;

    /** What a new connection gets. */
    enum Verdict {
        /** Served; {@link #release} with {@code refused = false} when it closes. */
        SERVE,
        /** Answered 503 and closed; {@link #release} with {@code refused = true} when it closes. */
        REFUSE,
        /** Closed at once without a word; nothing to release. */
        DROP
    }

    /**
     * The process's descriptor limit ({@code ulimit -n}) and how many it had open when the server
     * started, as {@code UnixOperatingSystemMXBean} reports them, or on a runtime without the {@code
     * jdk.management} module (a trimmed image) as Linux's {@code /proc/self} does.
     */
    record DescriptorLimit(long max, long openAtStart) {

        /** This process's, read now; null where neither way reports them. */
        static DescriptorLimit ofThisProcess() {
            try {
                return fromManagement();
            } catch (LinkageError e) {
                return fromProc(Path.of("/proc/self/limits"), Path.of("/proc/self/fd"));
            }
        }

        private static DescriptorLimit fromManagement() {
            OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            if (!(os instanceof com.sun.management.UnixOperatingSystemMXBean)) {
                return null;
            }
            com.sun.management.UnixOperatingSystemMXBean unix = (com.sun.management.UnixOperatingSystemMXBean) os;
            long max = unix.getMaxFileDescriptorCount();
            long open = unix.getOpenFileDescriptorCount();
            return max > 0 && open >= 0 ? new DescriptorLimit(max, open) : null;
        }

        /**
         * The soft limit from {@code limits} (a {@code /proc/PID/limits}) and the entries of {@code
         * fds} (its {@code fd} directory) less the one this listing holds; null where there is no
         * limit or either is missing or unreadable.
         */
        static DescriptorLimit fromProc(Path limits, Path fds) {
            try (Stream<Path> open = Files.list(fds)) {
                long count = open.count() - 1;
                for (String line : Files.readAllLines(limits)) {
                    if (line.startsWith("Max open files")) {
                        String soft =
                                line.substring("Max open files".length()).trim().split("\\s+")[0];
                        return soft.equals("unlimited") ? null : new DescriptorLimit(Long.parseLong(soft), count);
                    }
                }
                return null;
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }

    private final int requested;
    private final int cachedFiles;
    private final int maxConnections;
    private final boolean holdsWhenFull;
    private final DescriptorLimit limit;
    private final Runnable placeFreed;
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicInteger refusing = new AtomicInteger();

    /** Admission to {@code maxConnections} with no descriptor limit: over it, 503 and drops. */
    Admission(int maxConnections) {
        this(maxConnections, null, () -> {});
    }

    /** Admission with no cache of open files: see the constructor below. */
    Admission(int requested, DescriptorLimit limit, Runnable placeFreed) {
        this(requested, limit, 0, placeFreed);
    }

    /**
     * Admission to {@code requested} connections, or to fewer if {@code limit} cannot serve that many.
     *
     * @param limit the process's descriptor limit, or null for none
     * @param cachedFiles the most files the cache of open files keeps open ({@link #cacheWithin}), 0 if none
     * @param placeFreed run when a connection closes while the descriptor limit held the acceptor
     *     back: the acceptor may accept again
     */
    Admission(int requested, DescriptorLimit limit, int cachedFiles, Runnable placeFreed) {
        int allowed = limit == null ? Integer.MAX_VALUE : allowedBy(limit.max(), limit.openAtStart(), cachedFiles);
        this.requested = requested;
        this.cachedFiles = cachedFiles;
        this.maxConnections = Math.min(requested, allowed);
        this.holdsWhenFull = allowed < requested;
        this.limit = limit;
        this.placeFreed = placeFreed;
    }

    /** {@link #allowedBy(long, long, int)} with no cache of open files. */
    static int allowedBy(long maxDescriptors, long openAtStart) {
        return allowedBy(maxDescriptors, openAtStart, 0);
    }

    /**
     * Connections that {@code maxDescriptors} can serve at once with {@code openAtStart} already open:
     * what is left after the reserve ({@code openAtStart} and {@value #RESERVE_MARGIN}), the
     * refused connections' sockets ({@value #MAX_REFUSING}) and the files the cache of open files
     * keeps ({@code cachedFiles}), at {@value #DESCRIPTORS_PER_CONNECTION} each; at least 1, so that
     * a server started under a tiny limit still serves.
     */
    static int allowedBy(long maxDescriptors, long openAtStart, int cachedFiles) {
        long spare = spare(maxDescriptors, openAtStart) - cachedFiles;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, spare / DESCRIPTORS_PER_CONNECTION));
    }

    /**
     * The most files the cache of open files may keep: {@code requested}, or a quarter of what the
     * descriptor limit leaves after the reserve, if that is less (0: no cache), so that the
     * connections keep the rest. {@code limit} null: no limit.
     */
    static int cacheWithin(int requested, DescriptorLimit limit) {
        if (limit == null || requested == 0) {
            return requested;
        }
        long quarter = Math.max(0, spare(limit.max(), limit.openAtStart()) / 4);
        return (int) Math.min(requested, quarter);
    }

    private static long spare(long maxDescriptors, long openAtStart) {
        return maxDescriptors - openAtStart - RESERVE_MARGIN - MAX_REFUSING;
    }

    /** The most files the cache of open files keeps, as counted in the reserve. */
    int cachedFiles() {
        return cachedFiles;
    }

    /** Connections served at once: {@code --max-connections}, or fewer if the descriptor limit allows fewer. */
    int maxConnections() {
        return maxConnections;
    }

    /**
     * The warning for the operator when the descriptor limit cannot serve {@code --max-connections}
     * (as nginx warns that worker_connections exceed the open file limit), or null when it can.
     */
    String warning() {
        if (!holdsWhenFull) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "--max-connections %d exceeds what the open file limit allows (%d descriptors, %d open at start, "
                        + "%d kept by the open file cache, %d per connection): serving at most %d connections at once, "
                        + "more wait to be accepted; raise the limit (ulimit -n) to serve more",
                requested,
                limit.max(),
                limit.openAtStart(),
                cachedFiles,
                DESCRIPTORS_PER_CONNECTION,
                maxConnections);
    }

    /**
     * Whether the acceptor must not accept now: the descriptor limit is what bounds the connections,
     * and as many are served as it allows. {@code placeFreed} runs when that changes.
     */
    boolean full() {
        return holdsWhenFull && served.get() >= maxConnections;
    }

    /** Decides for a connection just accepted, and counts it unless it is dropped. */
    Verdict admit() {
        if (served.incrementAndGet() <= maxConnections) {
            return Verdict.SERVE;
        }
        served.decrementAndGet();
        if (refusing.incrementAndGet() <= MAX_REFUSING) {
            return Verdict.REFUSE;
        }
        refusing.decrementAndGet();
        return Verdict.DROP;
    }

    /** A connection {@link #admit} counted has closed; {@code refused} says whether it was refused. */
    void release(boolean refused) {
        if (refused) {
            refusing.decrementAndGet();
        } else if (served.getAndDecrement() == maxConnections && holdsWhenFull) {
            placeFreed.run();
        }
    }

    @Override
    public String toString() {
        return "admission(at most " + maxConnections + (holdsWhenFull ? ", by the open file limit" : "") + ")";
    }
}
