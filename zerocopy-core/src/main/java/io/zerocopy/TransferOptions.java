package io.zerocopy;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How a transfer should run: which strategies it may use, buffer and window sizes, the stall
 * timeout, a listener and a rate limit. Immutable and thread-safe; build one with
 * {@link #builder()} and reuse it.
 *
 * <pre>{@code
 * TransferOptions options = TransferOptions.builder()
 *         .stallTimeout(Duration.ofSeconds(10))
 *         .rateLimit(50_000_000)
 *         .build();
 * long sent = Transfers.copy(file, socketChannel, options);
 * }</pre>
 *
 * <h2>Operators</h2>
 * Two system properties are read at every transfer, so a path can be switched off without a code
 * change. {@value #EXCLUDE_PROPERTY} is a comma-separated list of strategy names that are never
 * used, not even when these options force one (the transfer then falls back to normal selection).
 * {@value #STRATEGY_PROPERTY} names a strategy to use wherever it can serve the source and target;
 * it takes precedence over {@link Builder#strategy(String)}, but not over an exclusion, these
 * options' or the property's, and transfers it cannot serve select as usual. A name in either
 * property that is no strategy's fails every transfer with an {@link IllegalArgumentException}
 * naming the property, until it is corrected; a blank one is ignored.
 */
public final class TransferOptions {

    /** System property: strategy names never to use, comma-separated. */
    public static final String EXCLUDE_PROPERTY = "zerocopy.exclude";

    /** System property: the strategy to use wherever it can serve the transfer. */
    public static final String STRATEGY_PROPERTY = "zerocopy.strategy";

    /**
     * System property, read once: the most direct memory the library's buffers may take in this
     * process, in bytes, with an optional {@code k}, {@code m} or {@code g} suffix as for
     * {@code -XX:MaxDirectMemorySize}; 0 means no direct buffers at all. The default is a quarter of
     * the JVM's direct memory limit, at most 64 MiB. A transfer that finds the budget spent takes a
     * path that needs no buffer ({@code transferTo}) or a small heap buffer, and its
     * {@link TransferResult#reason()} says so; the library never ends a transfer with the JDK's
     * {@code OutOfMemoryError} for direct memory.
     */
    public static final String DIRECT_MEMORY_PROPERTY = "zerocopy.directMemory";

    /**
     * Default copy buffer: 256 KiB, the fastest size measured for the buffered strategy both sending
     * and receiving; larger buffers gained too little to pin more memory per transfer. To a loopback
     * peer on Linux it is rounded down to whole loopback segments (see {@link Builder#bufferSize}).
     */
    public static final int DEFAULT_BUFFER_SIZE = 256 * 1024;

    /**
     * Default mapped window: 64 MiB. Windows of 8 to 64 MiB, one write each, were the fastest mapped
     * path measured; larger ones gain nothing and pin more address space per transfer.
     */
    public static final long DEFAULT_MAPPED_WINDOW = 64L * 1024 * 1024;

    /**
     * Default stall timeout: 60 seconds without a single byte moving. Long enough for a slow or
     * briefly paused peer, short enough that a dead one does not hold a thread for ever, where the
     * engine sees time pass: not inside a write that blocks in the kernel
     * ({@link Builder#stallTimeout}), which a peer gone without a reset holds until TCP gives up
     * retransmitting.
     */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(60);

    private static final TransferOptions DEFAULTS = builder().build();

    private final String strategy;
    private final Set<String> excluded;
    private final int bufferSize;
    private final long mappedWindow;
    private final Duration stallTimeout;
    private final long stallTimeoutNanos;
    private final TransferListener listener;
    private final long rateLimit;
    /** The verbs' machinery for these options, made on first use (racy, but immutable: at worst made twice). */
    private Opener opener;

    private TransferOptions(Builder b) {
        this.strategy = b.strategy;
        this.excluded = Collections.unmodifiableSet(new LinkedHashSet<>(b.excluded));
        this.bufferSize = b.bufferSize;
        this.mappedWindow = b.mappedWindow;
        this.stallTimeout = b.stallTimeout;
        this.stallTimeoutNanos = saturatedNanos(b.stallTimeout);
        this.listener = b.listener;
        this.rateLimit = b.rateLimit;
    }

    /** The default options: automatic selection, default sizes and timeout, no listener, no rate limit. */
    public static TransferOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    Opener opener() {
        Opener o = opener;
        if (o == null) {
            o = new Opener(this, Platform.current());
            opener = o;
        }
        return o;
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.strategy = strategy;
        b.excluded.addAll(excluded);
        b.bufferSize = bufferSize;
        b.mappedWindow = mappedWindow;
        b.stallTimeout = stallTimeout;
        b.listener = listener;
        b.rateLimit = rateLimit;
        return b;
    }

    /** The forced strategy's name, or empty for automatic selection. */
    public Optional<String> strategy() {
        return Optional.ofNullable(strategy);
    }

    /** The strategy names excluded by these options (the system property adds to them). */
    public Set<String> excluded() {
        return excluded;
    }

    public int bufferSize() {
        return bufferSize;
    }

    public long mappedWindow() {
        return mappedWindow;
    }

    public Duration stallTimeout() {
        return stallTimeout;
    }

    /** The stall timeout in nanoseconds, {@code Long.MAX_VALUE} for one too long to count in them. */
    long stallTimeoutNanos() {
        return stallTimeoutNanos;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    public TransferListener listener() {
        return listener;
    }

    /** The rate limit in bytes per second, or 0 for none. */
    public long rateLimit() {
        return rateLimit;
    }

    @Override
    public String toString() {
        return "TransferOptions{strategy=" + (strategy == null ? "auto" : strategy)
                + ", excluded=" + excluded
                + ", bufferSize=" + bufferSize
                + ", mappedWindow=" + mappedWindow
                + ", stallTimeout=" + stallTimeout
                + ", rateLimit=" + (rateLimit == 0 ? "none" : rateLimit + " B/s")
                + ", listener=" + listener + "}";
    }

    /** Builds {@link TransferOptions}; not thread-safe. Every setter validates its argument at once. */
    public static final class Builder {
        private String strategy;
        private final Set<String> excluded = new LinkedHashSet<>();
        private int bufferSize = DEFAULT_BUFFER_SIZE;
        private long mappedWindow = DEFAULT_MAPPED_WINDOW;
        private Duration stallTimeout = DEFAULT_STALL_TIMEOUT;
        private TransferListener listener = TransferListener.NONE;
        private long rateLimit;

        private Builder() {}

        /**
         * Forces one strategy by name ({@code "transferTo"}, {@code "transferFrom"}, {@code "mmap"},
         * {@code "buffered"}, {@code "native"}, {@code "splice"}, or a registered one's), or
         * {@code null} for automatic selection. A copy
         * whose source and target the forced strategy cannot serve fails with
         * {@code IllegalArgumentException} before a byte moves.
         *
         * @throws IllegalArgumentException if no strategy has this name
         */
        public Builder strategy(String name) {
            if (name != null) {
                Strategies.require(name, "strategy");
            }
            this.strategy = name;
            return this;
        }

        /**
         * Excludes strategies by name from selection (adding to earlier calls). A transfer whose
         * preferred strategies are all excluded runs by another one that can serve it (with
         * {@code buffered} excluded, a file goes by {@code transferTo}, {@code transferFrom} or
         * {@code mmap}, or from a path with native access by {@code native}); only where none is
         * left does it fail, with an {@link IllegalArgumentException} before any byte moves.
         *
         * @throws IllegalArgumentException if a name is unknown
         */
        public Builder exclude(String... names) {
            Objects.requireNonNull(names, "names");
            for (String name : names) {
                Strategies.require(Objects.requireNonNull(name, "names[i]"), "exclude");
            }
            excluded.addAll(Arrays.asList(names));
            return this;
        }

        /**
         * The copy buffer size of the buffered strategy, in bytes (1 to 1 GiB);
         * defaults to {@link #DEFAULT_BUFFER_SIZE}. Direct buffers of up to 4 MiB come from a small
         * shared pool and are reused by later transfers; a larger one is allocated for one transfer
         * and never larger than that transfer where its length is known (not a copy to the end of a
         * stream or channel, nor a copy between streams, whose buffer is an array of this size).
         *
         * <p>To a TCP socket connected to a loopback address on Linux, a size of at least one loopback
         * segment is rounded down to whole segments, so that no write ends in a short segment that
         * Nagle's algorithm holds back until the peer acknowledges. A loopback segment (MSS) carries
         * 65,483 bytes over IPv4 and 65,464 over IPv6, with {@code lo}'s default MTU of 65,536 and TCP
         * timestamps (measured on this project's Linux 6.18 machine with {@code TCP_MAXSEG}); the
         * default becomes 261,932 bytes, four segments. {@link TransferResult#reason()} gives the size
         * used. Smaller sizes, and all other targets, are used as given.
         */
        public Builder bufferSize(int bytes) {
            Checks.inRange(bytes, 1, 1 << 30, "bufferSize");
            this.bufferSize = bytes;
            return this;
        }

        /**
         * The largest file region the mmap strategy maps at once, in bytes (1 to
         * {@code Integer.MAX_VALUE}, the JDK's limit for one mapping; above {@code Integer.MAX_VALUE}
         * less 8, the most Java 22 and later wrap as one buffer, it maps that much); defaults to
         * {@link #DEFAULT_MAPPED_WINDOW}.
         */
        public Builder mappedWindow(long bytes) {
            Checks.inRange(bytes, 1, Integer.MAX_VALUE, "mappedWindow");
            this.mappedWindow = bytes;
            return this;
        }

        /**
         * The longest time the transfer may go without moving a byte before it fails with
         * {@link TransferTimeoutException}; defaults to {@link #DEFAULT_STALL_TIMEOUT}.
         *
         * <p>The engine can only measure time between calls into the channels. With a non-blocking
         * target it waits for writability with a selector and the timeout is exact. With a
         * <b>blocking</b> target (a blocking {@code SocketChannel}, a {@code Socket}, an
         * {@code OutputStream}) a single write that blocks in the kernel because the peer stopped
         * reading cannot be cut short by the engine: the timeout catches it only once that write
         * returns. To bound such a write, use a non-blocking channel, or close the socket from
         * another thread (the transfer then fails with a {@link TransferException}). On JDK 17 a
         * {@code transferTo} blocked in {@code sendfile} does not see that close and waits on until
         * the peer reads: shut the socket's output first ({@code socket.shutdownOutput()}), which
         * fails the call at once on every JDK, then close it. With native access and
         * {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED} (native access alone sends by the
         * JDK's calls), a file sent by {@code sendfile} and a {@code splice} relay never wait in the
         * kernel on a platform thread (see {@code native} and {@code splice} in the README's strategy
         * table): there the timeout holds into a blocking socket too, up to about 0.3 s late (the
         * stall counts from the end of the first 0.1 s wait for room that found none, and is looked
         * at between such waits). A read or write of a file waits in the kernel as long as its file
         * system makes it (a stopped FUSE daemon, a frozen or unreachable one), on every path, as
         * the JDK's own calls do: the timeout catches it only once the call returns.
         */
        public Builder stallTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "stallTimeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("stallTimeout: " + timeout + " (expected: > 0)");
            }
            this.stallTimeout = timeout;
            return this;
        }

        /** The listener for transfers run with these options; defaults to {@link TransferListener#NONE}. */
        public Builder listener(TransferListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Limits the average throughput to {@code bytesPerSecond}, or 0 for no limit (the default).
         * The engine moves the bytes in steps of at most a tenth of a second's worth and pauses
         * between steps; the pauses react to interrupts. The schedule starts at the first step (for
         * a {@link Transfer}, its first {@code advance}), so time spent before it earns no burst. The
         * first step goes at once, as a token bucket's first permit does: at any moment at most one
         * step more than the rate allows since the start has moved, and a transfer of one step is
         * not slowed at all. A copy that runs to the end of its source (stream to stream, channel to
         * channel) learns of that end from one more read, which is paced like any step: it returns
         * up to one pause after its last byte.
         */
        public Builder rateLimit(long bytesPerSecond) {
            Checks.notNegative(bytesPerSecond, "rateLimit");
            this.rateLimit = bytesPerSecond;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if the forced strategy is also excluded
         */
        public TransferOptions build() {
            if (strategy != null && excluded.contains(strategy)) {
                throw new IllegalArgumentException(
                        "strategy: " + strategy + " (expected: a strategy that is not excluded)");
            }
            return new TransferOptions(this);
        }
    }
}
