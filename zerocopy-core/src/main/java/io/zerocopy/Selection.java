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
     * save does (docs/defaults.md).
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
     * <p>A source opened for direct I/O goes to a mapping, which its alignment rules do not bind;
     * {@code sendfile} and {@code copy_file_range} are bound (EINVAL at an unaligned offset), and
     * the JDK's {@code transferTo} then reads through a buffer, which fails.
     *
     * <p>A file to a socket on Linux: to a peer on another host, {@code sendfile}, as nginx, Kafka,
     * Netty and Tomcat do: a network card reads the page cache itself, so the sender copies nothing
     * and holds no buffer. To a peer on this host, where the receiver's copy runs on the same CPUs,
     * the scale benchmark decides (docs/scale.md): a read/write loop was the fastest or within a few
     * percent of it at every N, on platform and virtual threads, so the buffered strategy runs while
     * the direct memory budget lasts; past it, mapped windows, which need no buffer and came close
     * behind, where {@code sendfile} lost a third. A blocking socket written from a virtual thread
     * takes the same two rows wherever its peer is: the JDK runs it non-blocking underneath, so
     * {@code sendfile} returns 0 whenever it is full and can only be polled (with slow receivers most
     * such transfers missed the benchmark's deadline). Other systems keep their kernel path: they
     * were not measured.
     *
     * <p>mmap is chosen only for JDK channels (file, socket, pipe) without a kernel path: there the
     * kernel copies straight from the mapping, and a page lost to truncation is an {@code EFAULT}
     * at once. A channel of any other class (TLS, compression, a user's wrapper) reads the bytes in
     * user space, where the buffered strategy is faster than mmap at every size measured, and where a
     * lost page surfaces late, as an {@code InternalError}.
     *
     * <p>Socket (or any non-file) to file goes to the buffered strategy: the JDK's
     * {@code transferFrom} from a socket reads through an 8 KiB heap buffer and takes several times
     * as long (docs/defaults.md).
     *
     * <p>Socket to socket stays buffered. {@code splice} (Linux, Java 22+, with the JVM flags) can be
     * forced: in the relay runs (docs/splice.md) it always cost less relay CPU per GB, but was faster
     * only with many connections, and on a virtual thread the JDK's non-blocking descriptor makes it
     * wait in the engine's pauses.
     */
    private static final List<Row> TABLE = List.of(
            new Row(MappedStrategy.NAME,
                    r -> r.sourceDirectIo(),
                    (r, support) -> "the source was opened for direct I/O, whose alignment rules do not bind a mapping"),
            new Row(TransferToStrategy.NAME,
                    r -> fileToSocketOnLinux(r) && !Peers.onThisHost(r.target()) && !blockingOnVirtualThread(r),
                    (r, support) -> directPath(r).get() + " to a peer on another host: the network card reads the page"
                            + " cache, the sender copies nothing"),
            new Row(BufferedStrategy.NAME,
                    r -> fileToSocketOnLinux(r) && DirectBuffers.SHARED.canLend(r.bufferSize()),
                    (r, support) -> noSendfileReason(r) + "; " + support.reason()),
            new Row(MappedStrategy.NAME,
                    r -> fileToSocketOnLinux(r),
                    (r, support) -> noSendfileReason(r) + "; the direct memory budget (" + DirectBuffers.SHARED.budget()
                            + " bytes, " + TransferOptions.DIRECT_MEMORY_PROPERTY + ") is spent, and mapped windows"
                            + " need no buffer"),
            new Row(TransferToStrategy.NAME,
                    r -> r.sourceKind() == ChannelKind.FILE && directPath(r).isPresent(),
                    (r, support) -> directPath(r).get() + " from a file to a " + r.targetKind()),
            new Row(MappedStrategy.NAME,
                    r -> r.sourceKind() == ChannelKind.FILE && kernelReadsTarget(r.targetKind())
                            && r.count() >= MMAP_MIN_BYTES,
                    (r, support) -> noKernelPath(r) + "; mapped windows save a copy at " + r.count() + " bytes"),
            new Row(BufferedStrategy.NAME,
                    r -> true,
                    // the buffer it takes, which says when the direct memory budget is spent
                    (r, support) -> bufferedReason(r) + "; " + support.reason()));

    /**
     * A blocking socket written from a virtual thread: the JDK runs it non-blocking underneath, so
     * {@code transferTo} returns 0 whenever it is full and the engine can only poll it, while a
     * write parks the virtual thread until the socket takes more (docs/scale.md, slow receivers).
     */
    private static boolean blockingOnVirtualThread(TransferRequest r) {
        return !r.targetNonBlocking() && Peers.callerIsVirtual();
    }

    /** Why a file to a socket on Linux does not go to sendfile. */
    private static String noSendfileReason(TransferRequest r) {
        if (!Peers.onThisHost(r.target())) {
            return "a file to a blocking socket from a virtual thread, where sendfile returns 0 whenever the socket is"
                    + " full and can only be polled, while a write parks the thread (docs/scale.md)";
        }
        return "a file to a socket on this host, where a read/write loop measured fastest at any number of transfers"
                + " at once (docs/scale.md)";
    }

    private static boolean fileToSocketOnLinux(TransferRequest r) {
        return r.sourceKind() == ChannelKind.FILE && r.targetKind() == ChannelKind.SOCKET
                && r.platform().os() == Platform.OperatingSystem.LINUX;
    }

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
