package io.zerocopy;

import io.zerocopy.Choice.Check;
import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferStrategy;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Chooses the strategy for a transfer from its {@link TransferFacts}: a forced one if there is one,
 * else the first registered strategy that supports the request, else the most preferred row of
 * {@link #TABLE} that applies. A choice takes what its step will need (a pooled buffer) in the same
 * act, so that {@link Choice#reason()} is always true of what runs.
 *
 * <p>The table is the whole default policy in one place, each row's condition complete on its own;
 * the README's strategy table is this list in words. The reason of each row ends up in the debug log and in
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
     * One row of the default policy: {@code strategy} serves a transfer when {@code when} holds,
     * checked as {@code check} says, for {@code reason}. {@code when} is complete on its own: it
     * names every fact the reason relies on, so that the rows can be read, and reordered, one by
     * one; their order only says which of several true rows is preferred.
     */
    private record Row(BuiltInStrategy strategy, Predicate<Choice> when, Check check, Choice.Words reason) {}

    /**
     * The default policy, the most preferred row first.
     *
     * <p>A source opened for direct I/O goes to a mapping, which its alignment rules do not bind;
     * {@code sendfile} and {@code copy_file_range} are bound (EINVAL at an unaligned offset), and
     * the JDK's {@code transferTo} then reads through a buffer, which fails.
     *
     * <p>A file region with a prefix whose whole body fits {@link PrefixWrite#WHOLE_BODY_BYTES}
     * goes with the prefix in one read and one gathering write, reported as {@code buffered}: a row
     * like any other, so that a forced strategy runs instead and an excluded {@code buffered} never does.
     *
     * <p>A file to a socket on Linux: to a peer on another host, {@code sendfile}, as nginx, Kafka,
     * Netty and Tomcat do: a network card reads the page cache itself, so the sender copies nothing
     * and holds no buffer. To a peer on this host {@code sendfile} too, at every size above the
     * smallest over TCP, and at every size to a Unix domain socket: which strategy moves the most
     * bytes per second there depends on the receiver (a client reading straight from the server, or
     * a proxy on the same host), but {@code sendfile} costs the sender the least CPU per byte before
     * either, and a loaded server runs short of CPU first (docs/scale.md). With {@code transferTo}
     * excluded, the buffered strategy runs while the direct memory budget lasts, then mapped
     * windows, which need no buffer. A virtual thread takes the same rows as a platform thread: to a
     * blocking socket, which the JDK runs non-blocking underneath, the {@code transferTo} step waits
     * for room by parking in the socket's own write rather than polling (see
     * {@link TransferToStrategy}, docs/virtual-threads.md). Other systems keep their kernel path:
     * they were not measured.
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
    private static final Row[] TABLE = {
        new Row(
                MappedStrategy.INSTANCE,
                s -> s.facts.sourceDirectIo(),
                Check.LAST_BYTE,
                (s, how) -> "the source was opened for direct I/O, whose alignment rules do not bind a mapping"),
        new Row(
                NativeStrategy.INSTANCE,
                s -> s.facts.nativeSource() && PrefixWrite.goesWhole(s.facts),
                Check.WITH_PREFIX,
                (s, how) -> "a file the library opened natively (openat, fstat), its whole body of "
                        + s.facts.count()
                        + " bytes with the prefix: one pread and one gathering write, no FileChannel"),
        new Row(
                NativeStrategy.WITHOUT_SENDFILE,
                s -> s.facts.nativeSource() && s.excludes(TransferToStrategy.NAME),
                Check.READ_AHEAD,
                (s, how) -> (s.facts.prefixChunk() + s.facts.count())
                        + " bytes of a file the library opened natively, transferTo excluded: " + how),
        new Row(
                NativeStrategy.INSTANCE,
                s -> s.facts.nativeSource(),
                Check.READ_AHEAD,
                (s, how) -> (s.facts.prefixChunk() + s.facts.count()) + " bytes of a file the library opened natively: "
                        + how),
        new Row(
                BufferedStrategy.INSTANCE,
                s -> PrefixWrite.goesWhole(s.facts) && !s.facts.sourceDirectIo(),
                Check.WITH_PREFIX,
                (s, how) -> s.facts.count() == 0
                        ? "an empty body: the prefix alone"
                        : "the whole body, " + s.facts.count() + " bytes, goes with the prefix: one"
                                + " read and one gathering write, no segment with the prefix alone"),
        new Row(
                TransferToStrategy.INSTANCE,
                s -> s.facts.fileToSocketOnLinux() && !s.facts.peer().onThisHost,
                Check.LAST_BYTE,
                (s, how) -> how + ", to a peer on another host: the network card reads the page cache,"
                        + " the sender copies nothing"),
        new Row(
                BufferedStrategy.INSTANCE,
                s -> s.facts.fileToSocketOnLinux()
                        && s.facts.peer().readsSmallFiles
                        && s.facts.count() <= BufferedStrategy.LOCAL_READ_MAX_BYTES
                        && s.hasPooledBuffer(),
                Check.READ_AHEAD,
                (s, how) -> "a file of at most " + BufferedStrategy.LOCAL_READ_MAX_BYTES
                        + " bytes to a peer on this host: one"
                        + " read, which is also the check, and one write, where transferTo makes a check read,"
                        + " a size call and its sendfile; " + how),
        new Row(
                TransferToStrategy.INSTANCE,
                s -> s.facts.fileToSocketOnLinux() && s.facts.peer().onThisHost,
                Check.LAST_BYTE,
                (s, how) -> how + ", to a peer on this host: no copy and no buffer in the sender, the least"
                        + " sender CPU per byte, which a loaded server runs short of first"),
        new Row(
                BufferedStrategy.INSTANCE,
                s -> s.facts.fileToSocketOnLinux() && notBySendfile(s) && s.hasPooledBuffer(),
                Check.LAST_BYTE,
                (s, how) -> notBySendfileReason(s) + "; " + how),
        new Row(
                MappedStrategy.INSTANCE,
                s -> s.facts.fileToSocketOnLinux()
                        && notBySendfile(s)
                        && (s.excludes(BufferedStrategy.NAME) || !s.hasPooledBuffer()),
                Check.LAST_BYTE,
                (s, how) -> notBySendfileReason(s)
                        + (s.excludes(BufferedStrategy.NAME)
                                ? "; buffered is excluded, and mapped windows need no buffer"
                                : "; the direct memory budget (" + DirectBuffers.SHARED.budget() + " bytes, "
                                        + TransferOptions.DIRECT_MEMORY_PROPERTY + ") is spent, and mapped windows"
                                        + " need no buffer")),
        new Row(
                TransferToStrategy.INSTANCE,
                s -> s.facts.sourceKind() == ChannelKind.FILE && kernelPath(s) != null,
                Check.LAST_BYTE,
                (s, how) -> s.facts.directPath() + " from a file to a " + s.facts.targetKind()),
        new Row(
                MappedStrategy.INSTANCE,
                s -> s.facts.sourceKind() == ChannelKind.FILE
                        && kernelReadsTarget(s.facts.targetKind())
                        && s.facts.count() >= MMAP_MIN_BYTES
                        && (kernelPath(s) == null || s.excludes(TransferToStrategy.NAME))
                        && s.facts.mappable(),
                Check.LAST_BYTE,
                (s, how) -> noKernelPath(s) + "; mapped windows save a copy at " + s.facts.count() + " bytes"),
        new Row(
                BufferedStrategy.INSTANCE,
                s -> true,
                Check.LAST_BYTE,
                // the buffer it took, which says when the direct memory budget is spent
                (s, how) -> bufferedReason(s) + "; " + how),
        // Last resorts, where the rows above are excluded, buffered among them: a strategy that can
        // still serve the pair runs rather than none (an exclusion takes a way, not the transfer).
        new Row(
                TransferToStrategy.INSTANCE,
                s -> s.excludes(BufferedStrategy.NAME),
                Check.LAST_BYTE,
                (s, how) -> lastResortReason(s) + how),
        new Row(
                TransferFromStrategy.INSTANCE,
                s -> s.excludes(BufferedStrategy.NAME),
                Check.LAST_BYTE,
                (s, how) -> lastResortReason(s) + how),
        new Row(
                MappedStrategy.INSTANCE,
                s -> s.excludes(BufferedStrategy.NAME),
                Check.LAST_BYTE,
                (s, how) -> lastResortReason(s) + how)
    };

    /** Why a last-resort row runs, in the terms its condition matched. */
    private static String lastResortReason(Choice s) {
        return "buffered is excluded, and no row preferred for a " + s.facts.sourceKind() + " to a "
                + s.facts.targetKind() + " applies; ";
    }

    /** A file to a socket that does not go by {@code sendfile}: {@code transferTo} is excluded. */
    private static boolean notBySendfile(Choice s) {
        return s.excludes(TransferToStrategy.NAME);
    }

    /** Why a file to a socket on Linux does not go by sendfile, in the terms {@link #notBySendfile} matched. */
    private static String notBySendfileReason(Choice s) {
        return "a file to a socket on " + (s.facts.peer().onThisHost ? "this" : "another") + " host, and transferTo"
                + " is excluded";
    }

    private final List<TransferStrategy> registered;
    private final String forced;
    private final Exclusions exclusions;

    /**
     * @param forced the strategy forced by the caller's options, or null
     * @param excludedByOptions names the caller's options exclude
     */
    Selection(List<TransferStrategy> registered, String forced, Set<String> excludedByOptions) {
        this.registered = List.copyOf(registered);
        this.forced = forced;
        this.exclusions = new Exclusions(excludedByOptions);
    }

    /**
     * The most bytes of a file opened natively ({@link NativeFiles}) that go by the {@code native}
     * strategy into {@code target}, for one call with these options and the system properties read
     * now: -1 where no file may be opened natively (the JVM cannot, a registered strategy is asked
     * first, native is excluded or another strategy forced, or nothing would go natively); any
     * count where native is forced or the file can go by {@code sendfile} into {@code target}
     * ({@link NativeFiles#canSendTo}) and {@code transferTo} is not excluded; else what goes by one
     * read ({@link NativeStrategy#readMax}, or for a body that goes whole with its prefix
     * {@link PrefixWrite#WHOLE_BODY_BYTES}), {@code peer} being where {@code target}'s peer is
     * ({@link Peers#of}). A larger file goes through a JDK channel over the same open
     * ({@link NativeFile#jdkChannel()}).
     */
    long nativeLimit(boolean withPrefix, WritableByteChannel target, Peers.Peer peer) {
        if (NativeFiles.unavailable() != null || !registered.isEmpty()) {
            return -1;
        }
        Set<String> excluded = exclusions.with(System.getProperty(TransferOptions.EXCLUDE_PROPERTY));
        if (excluded.contains(NativeStrategy.NAME)) {
            return -1;
        }
        String byProperty = forcedByProperty();
        String forcedNow = byProperty != null ? byProperty : forced;
        if (forcedNow != null) {
            return forcedNow.equals(NativeStrategy.NAME) ? Long.MAX_VALUE : -1;
        }
        if (!excluded.contains(TransferToStrategy.NAME) && NativeFiles.canSendTo(target)) {
            return Long.MAX_VALUE; // sendfile is the transferTo row's way, and goes with it
        }
        long byRead = target == null
                ? NativeStrategy.NATIVE_MAX_BYTES
                : NativeStrategy.readMax(ChannelKinds.of(target), peer);
        long limit = withPrefix ? Math.max(byRead, PrefixWrite.WHOLE_BODY_BYTES) : byRead;
        return limit > 0 ? limit : -1;
    }

    /** The strategy the system property forces, trimmed, or null. */
    private static String forcedByProperty() {
        String value = System.getProperty(TransferOptions.STRATEGY_PROPERTY);
        return value == null || value.isBlank() ? null : value.trim();
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
        return choose(
                facts,
                System.getProperty(TransferOptions.STRATEGY_PROPERTY),
                System.getProperty(TransferOptions.EXCLUDE_PROPERTY));
    }

    /** As {@link #choose(TransferFacts)}, with the two properties' values given. */
    Choice choose(TransferFacts facts, String forcedByProperty, String excludedByProperty) {
        Set<String> excluded = exclusions.with(excludedByProperty);
        if (forcedByProperty != null && !forcedByProperty.isBlank()) {
            TransferStrategy s =
                    Strategies.require(forcedByProperty.trim(), "system property " + TransferOptions.STRATEGY_PROPERTY);
            if (!excluded.contains(s.name())) {
                Choice choice = tryStrategy(
                        s,
                        facts,
                        (c, how) -> "forced by system property " + TransferOptions.STRATEGY_PROPERTY + ": " + how);
                if (choice != null) {
                    return choice;
                }
            }
        }
        if (forced != null && !excluded.contains(forced)) {
            TransferStrategy s = Strategies.require(forced, "strategy");
            Choice choice = tryStrategy(s, facts, (c, how) -> "forced: " + how);
            if (choice == null) {
                throw new IllegalArgumentException(
                        "strategy: " + forced + " (cannot serve " + facts.request() + ": " + refusal(s, facts) + ")");
            }
            return choice;
        }
        for (TransferStrategy s : registered) {
            if (!excluded.contains(s.name())) {
                Choice choice = tryStrategy(s, facts, (c, how) -> "registered strategy: " + how);
                if (choice != null) {
                    return choice;
                }
            }
        }
        Choice choice = new Choice(facts, excluded);
        for (Row row : TABLE) {
            if (!choice.excludes(row.strategy.name()) && row.when.test(choice) && row.strategy.refusal(facts) == null) {
                return choice.chosen(row.strategy, row.check, row.reason);
            }
        }
        choice.givePooledBufferBack();
        throw new IllegalArgumentException(
                "excluded: " + excluded + " (no strategy left that can serve " + facts.request() + ")");
    }

    /**
     * A choice of {@code s} if it can serve the transfer, else null. A built-in strategy is checked
     * as its most preferred row that applies would check it (a small body gathered with its
     * prefix, a small file read ahead), else by its slice's last byte.
     */
    private static Choice tryStrategy(TransferStrategy s, TransferFacts facts, Choice.Words reason) {
        if (s instanceof BuiltInStrategy) {
            BuiltInStrategy builtIn = (BuiltInStrategy) s;
            if (builtIn.refusal(facts) != null) {
                return null;
            }
            Choice choice = new Choice(facts, Set.of());
            Check check = Check.LAST_BYTE;
            for (Row row : TABLE) {
                if (row.strategy == builtIn && row.when.test(choice)) {
                    check = row.check;
                    break;
                }
            }
            return choice.chosen(builtIn, check, reason);
        }
        Support support = Strategies.supports(s, facts.request());
        return support.supported() ? Choice.ofRegistered(s, facts, support, reason) : null;
    }

    private static String refusal(TransferStrategy s, TransferFacts facts) {
        return s instanceof BuiltInStrategy
                ? ((BuiltInStrategy) s).refusal(facts)
                : Strategies.supports(s, facts.request()).reason();
    }

    /** JDK channels, whose writes hand a mapped buffer to the kernel rather than to Java code. */
    private static boolean kernelReadsTarget(ChannelKind kind) {
        return kind == ChannelKind.FILE || kind == ChannelKind.SOCKET || kind == ChannelKind.PIPE;
    }

    /**
     * The kernel path of {@code transferTo} the table may take: none into a blocking pipe (JDK 17 to
     * 24), where a close of the pipe, which ends the pipe's own write, does not end a
     * {@code sendfile} waiting in it, and no {@code shutdownOutput} can.
     */
    private static String kernelPath(Choice s) {
        return s.facts.targetKind() == ChannelKind.PIPE && !s.facts.targetNonBlocking() ? null : s.facts.directPath();
    }

    /** Why transferTo does not serve a file source: the platform has no path, or it was excluded. */
    private static String noKernelPath(Choice s) {
        TransferFacts f = s.facts;
        if (f.directPath() == null) {
            return "no kernel path from a file to a " + f.targetKind() + " on " + f.platform();
        }
        if (kernelPath(s) == null) {
            return f.directPath() + " into a blocking pipe is passed over: a close of the pipe would not end it";
        }
        return s.excludes(TransferToStrategy.NAME) ? "transferTo is excluded" : f.directPath() + " is passed over";
    }

    private static String bufferedReason(Choice s) {
        TransferFacts f = s.facts;
        if (f.sourceKind() != ChannelKind.FILE) {
            return "no zero-copy path from " + (f.sourceIsStream() ? "a stream" : "a source of kind " + f.sourceKind());
        }
        if (f.targetIsStream()) {
            return "the target is a stream";
        }
        if (!kernelReadsTarget(f.targetKind())) {
            return "the target is not a JDK channel and reads the bytes in user space, where a buffer beats a mapping";
        }
        return noKernelPath(s)
                + (f.count() >= MMAP_MIN_BYTES && s.excludes(MappedStrategy.NAME)
                        ? ", and mmap is excluded"
                        : f.count() >= MMAP_MIN_BYTES
                                ? ", and mmap is passed over"
                                : ", and " + f.count() + " bytes is below the " + MMAP_MIN_BYTES
                                        + "-byte mapping threshold");
    }
}
