package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Platform;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStrategy;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Chooses the strategy for a request: a forced one if there is one, else the first registered
 * strategy that supports the request, else the first row of {@link #TABLE} that applies.
 *
 * <p>The table is the whole default policy in one place, in order; the README's strategy table is
 * this list in words. The {@code reason} of each row ends up in the debug log and in
 * {@link TransferResult#reason()}.
 */
final class Selection {

    /**
     * Smallest transfer for which the mmap strategy is chosen when the kernel has no direct path to
     * a JDK channel: 4 MiB. Below it, mmap, munmap and the page faults cost about what the copy they
     * save does (mmap took 0.82-1.43x the buffered strategy's time at 64 KiB to 1 MiB into a pipe or
     * a socket-backed channel; docs/defaults.md has the runs).
     */
    static final long MMAP_MIN_BYTES = 4L * 1024 * 1024;

    /** The choice and why it was made. */
    static final class Choice {
        final TransferStrategy strategy;
        final String reason;

        Choice(TransferStrategy strategy, String reason) {
            this.strategy = strategy;
            this.reason = reason;
        }

        @Override
        public String toString() {
            return strategy.name() + " (" + reason + ")";
        }
    }

    private static final class Row {
        final String strategy;
        final Predicate<TransferRequest> when;
        /** Why this row's strategy was chosen, given the request and the strategy's own {@link Support}. */
        final BiFunction<TransferRequest, Support, String> reason;

        Row(String strategy, Predicate<TransferRequest> when, BiFunction<TransferRequest, Support, String> reason) {
            this.strategy = strategy;
            this.when = when;
            this.reason = reason;
        }
    }

    /**
     * The default policy, first match wins.
     *
     * <p>A file to a socket on Linux goes to the buffered strategy, not to {@code sendfile}: in the
     * JMH suite (docs/benchmarks.md; 2 vCPU VM, JDK 17 and 25) {@code transferTo} took 1.3-1.7x the
     * time of the 256 KiB buffered loop to a loopback peer at 64 MiB and 1 GiB (JDK 17: 30.3 against
     * 19.2 ms and 382 against 291 ms), 1.8-1.9x at 1 MiB to a peer behind a veth pair (0.85 against
     * 0.46 ms), and was level at 1 GiB over veth (392 against 380 ms). sendfile costs the sending
     * thread 15-20% less CPU per GB over veth; on a real network card, which reads the page cache
     * itself, force {@code transferTo} (option or {@value TransferOptions#STRATEGY_PROPERTY}) if CPU
     * matters more than this machine's throughput. Other systems keep their kernel path: they were
     * not measured.
     *
     * <p>mmap is chosen only for JDK channels (file, socket, pipe) without a kernel path: there the
     * kernel copies straight from the mapping, and a page lost to truncation is an {@code EFAULT}
     * at once. A channel of any other class (TLS, compression, a user's wrapper) reads the bytes in
     * user space, where the buffered strategy measured 1.1-3.6x faster than mmap at every size from
     * 64 KiB to 64 MiB, and where a lost page surfaces late, as an {@code InternalError}.
     *
     * <p>Socket (or any non-file) to file goes to the buffered
     * strategy: the JDK's {@code transferFrom} from a socket reads through an 8 KiB heap buffer and
     * took 2.5x (JDK 17) and 3.0x (JDK 25) the time of the buffered strategy's 256 KiB direct
     * buffer (256 MiB from a loopback socket into a file, medians of 7; docs/defaults.md).
     *
     * <p>Socket to socket goes to splice where it can serve (Linux, Java 22+, the JVM flags; its
     * {@code supports} says no otherwise and the buffered row follows). In the relay runs
     * (docs/splice.md; medians of paired ratios against buffered, JDK 25) it cost 0.56-0.85x the
     * relay CPU per GB to a veth peer at 1.17-1.26x the throughput, and to a loopback peer 0.37x the
     * CPU at 1.41x the throughput with 256 connections but 0.83x the CPU at 0.91x the throughput with
     * one. A socket into a file stays buffered: into tmpfs splice reached 1.04x (one connection) and
     * 1.18x (256) its throughput, into ext4 writeback noise (0.49-3.03x run to run) hid any difference.
     */
    private static final List<Row> TABLE = List.of(
            new Row(BufferedStrategy.NAME,
                    r -> r.sourceKind() == ChannelKind.FILE && r.targetKind() == ChannelKind.SOCKET
                            && r.platform().os() == Platform.OperatingSystem.LINUX,
                    (r, support) -> "a file to a socket on Linux, where a read/write loop measured as fast as sendfile"
                            + " or faster, to loopback and to a veth peer (docs/benchmarks.md); " + support.reason()),
            new Row(TransferToStrategy.NAME,
                    r -> r.sourceKind() == ChannelKind.FILE && directPath(r).isPresent(),
                    (r, support) -> directPath(r).get() + " from a file to a " + r.targetKind()),
            new Row(MappedStrategy.NAME,
                    r -> r.sourceKind() == ChannelKind.FILE && kernelReadsTarget(r.targetKind())
                            && r.count() >= MMAP_MIN_BYTES,
                    (r, support) -> noKernelPath(r) + "; mapped windows save a copy at " + r.count() + " bytes"),
            new Row(SpliceStrategy.NAME,
                    r -> r.sourceKind() == ChannelKind.SOCKET && r.targetKind() == ChannelKind.SOCKET,
                    (r, support) -> "socket to socket, where splice measured less relay CPU per GB than a buffer at"
                            + " 1 and 256 connections (docs/splice.md); " + support.reason()),
            new Row(BufferedStrategy.NAME,
                    r -> true,
                    (r, support) -> bufferedReason(r)));

    private final List<TransferStrategy> registered;

    Selection(List<TransferStrategy> registered) {
        this.registered = List.copyOf(registered);
    }

    /**
     * Picks the strategy for {@code request}.
     *
     * @param forced the strategy forced by the caller's options, or null
     * @param excludedByOptions names the caller's options exclude
     * @param forcedByProperty the value of {@value TransferOptions#STRATEGY_PROPERTY}, or null
     * @param excludedByProperty the value of {@value TransferOptions#EXCLUDE_PROPERTY}, or null
     * @throws IllegalArgumentException if the forced strategy cannot serve the request, if a property
     *     names an unknown strategy, or if every strategy that could serve it is excluded
     */
    Choice choose(TransferRequest request, String forced, Set<String> excludedByOptions,
            String forcedByProperty, String excludedByProperty) {
        Set<String> excluded = new LinkedHashSet<>(excludedByOptions);
        if (excludedByProperty != null && !excludedByProperty.isBlank()) {
            for (String name : excludedByProperty.split(",")) {
                if (!name.isBlank()) {
                    excluded.add(Strategies.require(name.trim(), "system property " + TransferOptions.EXCLUDE_PROPERTY).name());
                }
            }
        }
        if (forcedByProperty != null && !forcedByProperty.isBlank()) {
            TransferStrategy s = Strategies.require(forcedByProperty.trim(), "system property " + TransferOptions.STRATEGY_PROPERTY);
            Support support = s.supports(request);
            if (support.supported() && !excluded.contains(s.name())) {
                return new Choice(s, "forced by system property " + TransferOptions.STRATEGY_PROPERTY + ": " + support.reason());
            }
        }
        if (forced != null && !excluded.contains(forced)) {
            TransferStrategy s = Strategies.require(forced, "strategy");
            Support support = s.supports(request);
            if (!support.supported()) {
                throw new IllegalArgumentException("strategy: " + forced + " (cannot serve " + request + ": "
                        + support.reason() + ")");
            }
            return new Choice(s, "forced: " + support.reason());
        }
        for (TransferStrategy s : registered) {
            if (!excluded.contains(s.name())) {
                Support support = s.supports(request);
                if (support.supported()) {
                    return new Choice(s, "registered strategy: " + support.reason());
                }
            }
        }
        for (Row row : TABLE) {
            if (!excluded.contains(row.strategy) && row.when.test(request)) {
                TransferStrategy s = Strategies.require(row.strategy, "strategy");
                Support support = s.supports(request);
                if (support.supported()) {
                    return new Choice(s, row.reason.apply(request, support));
                }
            }
        }
        throw new IllegalArgumentException("excluded: " + excluded + " (no strategy left that can serve " + request
                + "; the buffered strategy serves every pair)");
    }

    /** JDK channels, whose writes hand a mapped buffer to the kernel rather than to Java code. */
    private static boolean kernelReadsTarget(ChannelKind kind) {
        return kind == ChannelKind.FILE || kind == ChannelKind.SOCKET || kind == ChannelKind.PIPE;
    }

    private static Optional<String> directPath(TransferRequest r) {
        return r.platform().directTransferPath(r.targetKind(), r.targetNonBlocking());
    }

    /** Why transferTo was not chosen for a file source: the platform has no path, or it was excluded. */
    private static String noKernelPath(TransferRequest r) {
        return directPath(r).isPresent()
                ? "transferTo is excluded"
                : "no kernel path from a file to a " + r.targetKind() + " on " + r.platform();
    }

    private static String bufferedReason(TransferRequest r) {
        if (r.sourceKind() != ChannelKind.FILE) {
            return "no zero-copy path from a " + r.sourceKind() + " source";
        }
        if (r.targetKind() == ChannelKind.STREAM) {
            return "the target is a stream";
        }
        if (!kernelReadsTarget(r.targetKind())) {
            return "the target is not a JDK channel and reads the bytes in user space, where a buffer beats a mapping";
        }
        return noKernelPath(r) + (r.count() >= MMAP_MIN_BYTES
                ? ", and mmap is excluded"
                : ", and " + r.count() + " bytes is below the " + MMAP_MIN_BYTES + "-byte mapping threshold");
    }

    /** The strategies of the default table, in the order they are tried. */
    static List<String> tableOrder() {
        return TABLE.stream().map(row -> row.strategy).collect(Collectors.toUnmodifiableList());
    }
}
