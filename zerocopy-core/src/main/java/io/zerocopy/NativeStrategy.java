package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file the library opened itself with the kernel's calls ({@link NativeFiles}: Java 22+ on Linux,
 * with native access), sent as nginx sends one: {@code openat} and {@code fstat} before the
 * transfer, {@code close} after it, and between them either one {@code pread} into a pooled direct
 * buffer and the target's own {@code write} (with a prefix, one gathering write of both), or
 * {@code sendfile(2)} into a JDK socket's descriptor (the Java 22 part's {@code NativeSendStep}):
 * which one, the same rule as for a JDK file decides ({@link #byRead}). No
 * {@code FileChannel}, no stat by path, no failed {@code copy_file_range}. The {@code pread} step is
 * the buffered strategy's over the native file, so a full non-blocking target, a virtual thread
 * parked in the socket's write, an interrupt and a file that shrinks behave as they do there.
 *
 * <p>It serves only such a file, which {@code Transfers.copy(Path, ...)} and {@link OpenFile} make
 * unless the options force another strategy or exclude this one. Stateless but for whether it may
 * use {@code sendfile}: two shared instances, which the table's rows choose between.
 */
final class NativeStrategy extends BuiltInStrategy {
    static final NativeStrategy INSTANCE = new NativeStrategy(true);

    /**
     * The same strategy where {@code transferTo} is excluded: {@code sendfile} is that row's way, so
     * a file opened natively goes by {@code pread} and the target's write at every size.
     */
    static final NativeStrategy WITHOUT_SENDFILE = new NativeStrategy(false);

    static final String NAME = "native";

    /**
     * Largest file opened natively that goes by one {@code pread} and one write into anything but a
     * socket, where {@code sendfile} from it does not reach: 64 KiB. A larger one goes through a JDK
     * channel over the same open, and so by the rows for JDK files.
     */
    static final long NATIVE_MAX_BYTES = 64 * 1024;

    private final boolean sendfile;

    private NativeStrategy(boolean sendfile) {
        super(NAME);
        this.sendfile = sendfile;
    }

    /**
     * The most bytes of a file opened natively that go by one {@code pread} and one write into a
     * target of {@code kind}, rather than by {@code sendfile}: into a socket the rows a JDK file
     * follows, {@link BufferedStrategy#LOCAL_READ_MAX_BYTES} to a TCP peer on this host
     * ({@link Peers.Peer#readsSmallFiles}) and none to any other; into anything else
     * {@link #NATIVE_MAX_BYTES}.
     */
    static long readMax(ChannelKind kind, Peers.Peer peer) {
        if (kind != ChannelKind.SOCKET) {
            return NATIVE_MAX_BYTES;
        }
        return peer.readsSmallFiles ? BufferedStrategy.LOCAL_READ_MAX_BYTES : 0;
    }

    /**
     * Whether the {@code native} strategy sends these facts' file by one {@code pread} and one write
     * (with a prefix, a gathering one) rather than by {@code sendfile}: a whole body that goes with its
     * prefix, or a file within {@link #readMax}. The one place that decides it: the strategy's
     * step and its reason ask here.
     */
    static boolean byRead(TransferFacts facts) {
        return PrefixWrite.goesWhole(facts) || facts.count() <= readMax(facts.targetKind(), facts.peer());
    }

    /**
     * Whether the {@code native} step for these facts is {@code sendfile}: a file the platform can
     * send into this target ({@link NativeFiles#canSendfile}) that does not go by one read, where
     * {@code transferTo} is not excluded.
     */
    boolean sendsByKernel(TransferFacts facts) {
        return sendfile && !byRead(facts) && NativeFiles.canSendfile(facts.truncatableFile(), facts.targetKind());
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.nativeSource()) {
            return null;
        }
        String unavailable = NativeFiles.unavailable();
        return "native sends only a file the library opened itself (a path, or an OpenFile's channel)"
                + (unavailable == null ? "; the source is a " + facts.sourceKind() : "; " + unavailable);
    }

    /** The buffered step's buffer, unless the file goes by {@code sendfile}, which needs none. */
    @Override
    ByteBuffer takeFromPool(TransferFacts facts) {
        return sendsByKernel(facts) ? null : BufferedStrategy.INSTANCE.takeFromPool(facts);
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        return sendsByKernel(facts)
                ? "the file opened with openat and sized with fstat, sent with sendfile(2) into the socket's"
                        + " descriptor, no FileChannel and no copy in the sender"
                : "the file opened with openat and sized with fstat, read with pread into "
                        + BufferedStrategy.INSTANCE.how(facts, pooled) + ", no FileChannel";
    }

    /** A file that goes by one read is read ahead as the buffered step reads it: that read is the check. */
    @Override
    boolean canReadAhead(TransferFacts facts, ByteBuffer pooled) {
        return !sendsByKernel(facts) && BufferedStrategy.INSTANCE.canReadAhead(facts, pooled);
    }

    @Override
    int readAhead(TransferFacts facts, ByteBuffer pooled) throws IOException {
        return BufferedStrategy.INSTANCE.readAhead(facts, pooled);
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) throws IOException {
        return sendsByKernel(facts)
                ? NativeSendStep.open(facts)
                : BufferedStrategy.INSTANCE.open(facts, pooled, firstBytesRead);
    }
}
