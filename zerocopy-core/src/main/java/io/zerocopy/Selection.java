package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferStrategy;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Chooses the strategy for a transfer from its {@link TransferFacts}: a forced one if there is one,
 * else the first registered strategy that supports the request, else the first row of
 * {@link #TABLE} that applies. A choice takes what its step will need (a pooled buffer) in the same
 * act, so that {@link Choice#reason()} is always true of what runs.
 *
 * <p>The table is the whole default policy in one place, in order; the README's strategy table is
 * this list in words. The reason of each row ends up in the debug log and in
 * {@link TransferResult#reason()}; it is put into words only when one of them reads it.
 */
final class Selection {

    /**
     * Smallest transfer for which the mmap strategy is chosen when the kernel has no direct path to
     * a JDK channel: 4 MiB. Below it, mmap, munmap and the page faults cost about what the copy they
     * save does (docs/defaults.md).
     */
    static final long MMAP_MIN_BYTES = 4L * 1024 * 1024;

    /**
     * Largest file to a socket on this host that goes by a read and a write instead, on a JDK where
     * they cost less than its {@code transferTo} ({@link Platform#smallReadBeatsTransferTo()}): 8 KiB,
     * two pages. The read takes the whole file before the transfer starts and is also the check that
     * it can be read, so the transfer makes a read and a write where {@code sendfile} makes the
     * check, the JDK's size call, its {@code copy_file_range} try and the send (docs/fixed-cost.md);
     * at 16 KiB {@code sendfile} wins, and above that it costs the sender the least CPU per byte.
     */
    static final long LOCAL_READ_MAX_BYTES = 8 * 1024;

    private static final class Row {
        final BuiltInStrategy strategy;
        final Predicate<TransferFacts> when;
        /** Whether the row applies only while the strategy's step gets its buffer from the pool. */
        final boolean needsLent;
        final Choice.Why why;
        /** Whether the step reads the whole transfer before it starts, the read being the check. */
        final boolean readsAhead;

        Row(BuiltInStrategy strategy, Predicate<TransferFacts> when, boolean needsLent, Choice.Why why) {
            this(strategy, when, needsLent, why, false);
        }

        Row(BuiltInStrategy strategy, Predicate<TransferFacts> when, boolean needsLent, Choice.Why why, boolean readsAhead) {
            this.strategy = strategy;
            this.when = when;
            this.needsLent = needsLent;
            this.why = why;
            this.readsAhead = readsAhead;
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
     * and holds no buffer. To a peer on this host {@code sendfile} too, at every size above the
     * smallest: which strategy moves the most bytes per second there depends on the receiver (a
     * client reading straight from the server, or a proxy on the same host), but {@code sendfile}
     * costs the sender the least CPU per byte before either, and a loaded server runs short of CPU
     * first (docs/scale.md). With {@code transferTo} excluded, the buffered strategy runs while the
     * direct memory budget lasts, then mapped windows, which need no buffer. A virtual thread takes
     * the same rows as a platform thread: to a blocking socket, which the JDK runs non-blocking
     * underneath, the
     * {@code transferTo} step waits for room by parking in the socket's own write rather than
     * polling (see {@link TransferToStrategy}, docs/virtual-threads.md). Other systems keep their
     * kernel path: they were not measured.
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
     * only with many connections. On a virtual thread it parks in the sockets' own read and write
     * when one is not ready (see {@code SpliceStep}, docs/virtual-threads.md).
     */
    private static final List<Row> TABLE = List.of(
            new Row(MappedStrategy.INSTANCE,
                    TransferFacts::sourceDirectIo, false,
                    (f, how, spent) -> "the source was opened for direct I/O, whose alignment rules do not bind a mapping"),
            new Row(TransferToStrategy.INSTANCE,
                    f -> f.fileToSocketOnLinux() && !f.peerOnThisHost(), false,
                    (f, how, spent) -> how + ", to a peer on another host: the network card reads the page cache,"
                            + " the sender copies nothing"),
            new Row(BufferedStrategy.INSTANCE,
                    f -> f.fileToSocketOnLinux() && f.request().count() <= LOCAL_READ_MAX_BYTES
                            && f.platform().smallReadBeatsTransferTo(), true,
                    (f, how, spent) -> "a file of at most " + LOCAL_READ_MAX_BYTES + " bytes to a peer on this host: one"
                            + " read, which is also the check, and one write, where this JDK's transferTo makes a failing"
                            + " copy_file_range before its sendfile; " + how, true),
            new Row(TransferToStrategy.INSTANCE,
                    TransferFacts::fileToSocketOnLinux, false,
                    (f, how, spent) -> how + ", to a peer on this host: no copy and no buffer in the sender, the"
                            + " least sender CPU per byte, which a loaded server runs short of first"),
            new Row(BufferedStrategy.INSTANCE,
                    TransferFacts::fileToSocketOnLinux, true,
                    (f, how, spent) -> noSendfileReason(f) + "; " + how),
            new Row(MappedStrategy.INSTANCE,
                    TransferFacts::fileToSocketOnLinux, false,
                    (f, how, spent) -> noSendfileReason(f) + (spent
                            ? "; the direct memory budget (" + DirectBuffers.SHARED.budget() + " bytes, "
                                    + TransferOptions.DIRECT_MEMORY_PROPERTY + ") is spent, and mapped windows need no buffer"
                            : "; buffered is excluded, and mapped windows need no buffer")),
            new Row(TransferToStrategy.INSTANCE,
                    f -> f.sourceKind() == ChannelKind.FILE && f.directPath() != null, false,
                    (f, how, spent) -> f.directPath() + " from a file to a " + f.targetKind()),
            new Row(MappedStrategy.INSTANCE,
                    f -> f.sourceKind() == ChannelKind.FILE && kernelReadsTarget(f.targetKind())
                            && f.request().count() >= MMAP_MIN_BYTES, false,
                    (f, how, spent) -> noKernelPath(f) + "; mapped windows save a copy at " + f.request().count() + " bytes"),
            new Row(BufferedStrategy.INSTANCE,
                    f -> true, false,
                    // the buffer it took, which says when the direct memory budget is spent
                    (f, how, spent) -> bufferedReason(f) + "; " + how));

    /** Why a file to a socket on Linux (on this host) does not go to sendfile. */
    private static String noSendfileReason(TransferFacts f) {
        return "a file to a socket on this host, and transferTo is excluded";
    }

    private final List<TransferStrategy> registered;
    private final String forced;
    private final Set<String> excludedByOptions;
    /** The exclusions last read from the system property, and the property's value they were read from. */
    private volatile Exclusions exclusions;

    /**
     * @param forced the strategy forced by the caller's options, or null
     * @param excludedByOptions names the caller's options exclude
     */
    Selection(List<TransferStrategy> registered, String forced, Set<String> excludedByOptions) {
        this.registered = List.copyOf(registered);
        this.forced = forced;
        this.excludedByOptions = Set.copyOf(excludedByOptions);
        this.exclusions = new Exclusions(null, this.excludedByOptions);
    }

    /** A selection with nothing forced or excluded by options. */
    Selection(List<TransferStrategy> registered) {
        this(registered, null, Set.of());
    }

    /**
     * Picks the strategy for a transfer and takes what its step will need, reading the operators'
     * system properties {@value TransferOptions#STRATEGY_PROPERTY} and
     * {@value TransferOptions#EXCLUDE_PROPERTY} now.
     *
     * @throws IllegalArgumentException if the forced strategy cannot serve the request, if a property
     *     names an unknown strategy, or if every strategy that could serve it is excluded
     */
    Choice choose(TransferFacts facts) {
        return choose(facts, System.getProperty(TransferOptions.STRATEGY_PROPERTY),
                System.getProperty(TransferOptions.EXCLUDE_PROPERTY));
    }

    /** As {@link #choose(TransferFacts)}, with the two properties' values given. */
    Choice choose(TransferFacts facts, String forcedByProperty, String excludedByProperty) {
        Set<String> excluded = excluded(excludedByProperty);
        if (forcedByProperty != null && !forcedByProperty.isBlank()) {
            TransferStrategy s = Strategies.require(forcedByProperty.trim(), "system property " + TransferOptions.STRATEGY_PROPERTY);
            if (!excluded.contains(s.name())) {
                Choice choice = tryStrategy(s, facts, (f, how, spent) -> "forced by system property "
                        + TransferOptions.STRATEGY_PROPERTY + ": " + how);
                if (choice != null) {
                    return choice;
                }
            }
        }
        if (forced != null && !excluded.contains(forced)) {
            TransferStrategy s = Strategies.require(forced, "strategy");
            Choice choice = tryStrategy(s, facts, (f, how, spent) -> "forced: " + how);
            if (choice == null) {
                throw new IllegalArgumentException("strategy: " + forced + " (cannot serve " + facts.request() + ": "
                        + refusal(s, facts) + ")");
            }
            return choice;
        }
        for (TransferStrategy s : registered) {
            if (!excluded.contains(s.name())) {
                Choice choice = tryStrategy(s, facts, (f, how, spent) -> "registered strategy: " + how);
                if (choice != null) {
                    return choice;
                }
            }
        }
        boolean budgetSpent = false;
        for (Row row : TABLE) {
            if (excluded.contains(row.strategy.name()) || !row.when.test(facts) || row.strategy.refusal(facts) != null) {
                continue;
            }
            ByteBuffer lent = row.strategy.lend(facts);
            if (row.needsLent && lent == null) {
                budgetSpent = true;
                continue;
            }
            return new Choice(row.strategy, facts, lent, row.why, null, budgetSpent, row.readsAhead);
        }
        throw new IllegalArgumentException("excluded: " + excluded + " (no strategy left that can serve "
                + facts.request() + "; the buffered strategy serves every pair)");
    }

    /** A choice of {@code s} if it can serve the transfer, else null. */
    private static Choice tryStrategy(TransferStrategy s, TransferFacts facts, Choice.Why why) {
        if (s instanceof BuiltInStrategy) {
            BuiltInStrategy builtIn = (BuiltInStrategy) s;
            return builtIn.refusal(facts) == null ? new Choice(s, facts, builtIn.lend(facts), why, null, false, false) : null;
        }
        Support support = s.supports(facts.request());
        return support.supported() ? new Choice(s, facts, null, why, support, false, false) : null;
    }

    private static String refusal(TransferStrategy s, TransferFacts facts) {
        return s instanceof BuiltInStrategy ? ((BuiltInStrategy) s).refusal(facts) : s.supports(facts.request()).reason();
    }

    /** The options' exclusions and the property's; the property is parsed again only when its value changes. */
    private Set<String> excluded(String excludedByProperty) {
        Exclusions e = exclusions;
        if (e.property == null ? excludedByProperty == null : e.property.equals(excludedByProperty)) {
            return e.names;
        }
        Set<String> names = new LinkedHashSet<>(excludedByOptions);
        if (excludedByProperty != null && !excludedByProperty.isBlank()) {
            for (String name : excludedByProperty.split(",")) {
                if (!name.isBlank()) {
                    names.add(Strategies.require(name.trim(), "system property " + TransferOptions.EXCLUDE_PROPERTY).name());
                }
            }
        }
        e = new Exclusions(excludedByProperty, Set.copyOf(names));
        exclusions = e;
        return e.names;
    }

    /** The names excluded while the property reads {@code property}. */
    private static final class Exclusions {
        final String property;
        final Set<String> names;

        Exclusions(String property, Set<String> names) {
            this.property = property;
            this.names = names;
        }
    }

    /** JDK channels, whose writes hand a mapped buffer to the kernel rather than to Java code. */
    private static boolean kernelReadsTarget(ChannelKind kind) {
        return kind == ChannelKind.FILE || kind == ChannelKind.SOCKET || kind == ChannelKind.PIPE;
    }

    /** Why transferTo was not chosen for a file source: the platform has no path, or it was excluded. */
    private static String noKernelPath(TransferFacts f) {
        return f.directPath() != null
                ? "transferTo is excluded"
                : "no kernel path from a file to a " + f.targetKind() + " on " + f.platform();
    }

    private static String bufferedReason(TransferFacts f) {
        if (f.sourceKind() != ChannelKind.FILE) {
            return "no zero-copy path from a " + (f.sourceIsStream() ? "stream" : f.sourceKind() + " source");
        }
        if (f.targetIsStream()) {
            return "the target is a stream";
        }
        if (!kernelReadsTarget(f.targetKind())) {
            return "the target is not a JDK channel and reads the bytes in user space, where a buffer beats a mapping";
        }
        return noKernelPath(f) + (f.request().count() >= MMAP_MIN_BYTES
                ? ", and mmap is excluded"
                : ", and " + f.request().count() + " bytes is below the " + MMAP_MIN_BYTES + "-byte mapping threshold");
    }

    /** The strategies of the default table, in the order they are tried. */
    static List<String> tableOrder() {
        return TABLE.stream().map(row -> row.strategy.name()).collect(Collectors.toUnmodifiableList());
    }
}
