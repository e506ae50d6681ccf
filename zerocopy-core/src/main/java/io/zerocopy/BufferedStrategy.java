package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Platform;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Reads into one buffer and writes it out, reusing the buffer for the whole transfer; serves every
 * pair. The buffer is direct when both ends are channels (a JDK channel would otherwise copy a heap
 * buffer into a temporary direct one on every call) and a heap array when either end is a stream
 * (streams take arrays). Direct buffers come from, and go back to, the {@link DirectBuffers} pool;
 * when its budget is spent the step reads through a small heap buffer instead (see
 * {@link #HEAP_FALLBACK_BYTES}). A heap buffer is never larger than the transfer. A source opened for
 * direct I/O is declined: its reads would have to be block-aligned. Stateless; one shared instance.
 *
 * <p>To a TCP socket whose peer is loopback on Linux, the buffer (and with it every full write) is
 * cut down to whole loopback segments, see {@link #writeSize}.
 *
 * <p>A read is only issued once the previous read has been written out completely, so bytes read
 * but not yet accepted by a non-blocking target stay in the buffer and are written by the next
 * step.
 */
final class BufferedStrategy implements TransferStrategy {
    static final BufferedStrategy INSTANCE = new BufferedStrategy();

    static final String NAME = "buffered";

    /**
     * The MSS of an IPv4 loopback connection on Linux with {@code lo}'s default MTU of 65,536 and
     * TCP timestamps on: 65,535 (the most an IPv4 packet can hold) less 20 bytes of IP header, 20 of
     * TCP header and 12 of timestamp option. Measured here (Linux 6.18) with
     * {@code getsockopt(TCP_MAXSEG)} on a 127.0.0.1 connection after it had sent 64 MiB.
     */
    static final int LOOPBACK_MSS_IPV4 = 65_483;

    /**
     * The same for IPv6 loopback ({@code ::1}): 65,536 less 40 bytes of IPv6 header, 20 of TCP and
     * 12 of timestamps; measured the same way.
     */
    static final int LOOPBACK_MSS_IPV6 = 65_464;

    /**
     * The heap buffer used between channels when the direct memory budget is spent: 16 KiB. A JDK
     * channel copies a heap buffer through a temporary direct buffer of the same size that it keeps
     * per platform thread, so this is also what each such thread then holds outside the budget.
     */
    static final int HEAP_FALLBACK_BYTES = 16 * 1024;

    /** Buffer sizes up to 4 MiB are asked for whole, so that they serve later transfers; larger ones are rare. */
    static final int SHARED_SIZE_LIMIT = 4 << 20;

    private BufferedStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        if (request.sourceDirectIo()) {
            return Support.no("the source was opened for direct I/O (O_DIRECT), whose reads must be block-aligned");
        }
        int writeSize = writeSize(request);
        int size = bufferSize(request, writeSize);
        if (!usesHeap(request) && !DirectBuffers.SHARED.canLend(poolSize(request, size))) {
            return Support.yes("a heap buffer of " + Math.min(size, HEAP_FALLBACK_BYTES) + " bytes: the direct memory budget ("
                    + DirectBuffers.SHARED.budget() + " bytes, " + TransferOptions.DIRECT_MEMORY_PROPERTY + ") is spent");
        }
        String reason = "a " + bufferDescription(request) + " buffer of " + size + " bytes";
        if (size == writeSize && size != request.bufferSize()) {
            int mss = loopbackMss(request);
            reason += ": " + size / mss + " loopback segments of " + mss + " bytes, the most that fit in the "
                    + request.bufferSize() + " asked for, so that no write ends in a runt segment that Nagle holds";
        }
        return Support.yes(reason);
    }

    @Override
    public TransferStep open(TransferRequest request) {
        return new Step(request);
    }

    private static boolean usesHeap(TransferRequest request) {
        return request.sourceKind() == ChannelKind.STREAM || request.targetKind() == ChannelKind.STREAM;
    }

    private static String bufferDescription(TransferRequest request) {
        return usesHeap(request) ? "heap" : "direct";
    }

    private static int bufferSize(TransferRequest request) {
        return bufferSize(request, writeSize(request));
    }

    /**
     * The size to ask the pool for: the usual size, so that the buffer serves the next transfer too;
     * one larger than {@link #SHARED_SIZE_LIMIT} (an explicit bufferSize) only at the size this
     * transfer needs.
     */
    private static int poolSize(TransferRequest request, int size) {
        return request.bufferSize() <= SHARED_SIZE_LIMIT ? request.bufferSize() : size;
    }

    /** The write size, or the whole transfer when that is smaller. */
    private static int bufferSize(TransferRequest request, int writeSize) {
        long count = request.count();
        return count < 0 ? writeSize : (int) Math.max(1, Math.min(writeSize, count));
    }

    /**
     * The requested buffer size, or, to a loopback TCP peer on Linux when at least one segment was
     * asked for, the largest multiple of the loopback MSS within it: any other size leaves a runt
     * segment behind each write that Nagle's algorithm holds until the peer acknowledges. To other
     * peers the size is left alone, since their MSS is far smaller (docs/benchmarks.md).
     */
    static int writeSize(TransferRequest request) {
        int requested = request.bufferSize();
        int mss = loopbackMss(request);
        return mss > 0 && requested >= mss ? requested / mss * mss : requested;
    }

    /** The loopback MSS when the target is a TCP socket connected to loopback on Linux, else 0. */
    private static int loopbackMss(TransferRequest request) {
        return request.targetKind() == ChannelKind.SOCKET ? loopbackMss(request.target(), request.platform()) : 0;
    }

    /** The loopback MSS when {@code target} is a TCP socket connected to loopback on Linux, else 0. */
    static int loopbackMss(WritableByteChannel target, Platform platform) {
        if (platform.os() != Platform.OperatingSystem.LINUX || !(target instanceof SocketChannel)) {
            return 0;
        }
        try {
            return loopbackMss(((SocketChannel) target).getRemoteAddress());
        } catch (IOException e) {
            return 0; // closed: the transfer fails on its first write, whatever the size
        }
    }

    /** The loopback MSS for a remote address on loopback, else 0 (also for null or a Unix domain address). */
    static int loopbackMss(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress)) {
            return 0;
        }
        InetAddress address = ((InetSocketAddress) remote).getAddress();
        if (address == null || !address.isLoopbackAddress()) {
            return 0;
        }
        return address instanceof Inet6Address ? LOOPBACK_MSS_IPV6 : LOOPBACK_MSS_IPV4;
    }

    @Override
    public String toString() {
        return NAME;
    }

    private static final class Step implements TransferStep {
        private final ReadableByteChannel source;
        private final FileChannel sourceFile;
        private final long start;
        private final WritableByteChannel target;
        /** Between steps the buffer is in drain mode: its remaining bytes are read but not yet written. */
        private final ByteBuffer buffer;
        /** How much of the buffer one read may fill: the buffer size, or less for a small transfer. */
        private final int size;
        private Side stalledOn = Side.TARGET;

        Step(TransferRequest request) {
            this.source = request.source();
            this.sourceFile = request.sourceKind() == ChannelKind.FILE ? request.sourceFile() : null;
            this.start = request.position();
            this.target = request.target();
            int wanted = bufferSize(request);
            ByteBuffer direct = usesHeap(request) ? null : DirectBuffers.SHARED.acquire(poolSize(request, wanted));
            this.size = usesHeap(request) || direct != null ? wanted : Math.min(wanted, HEAP_FALLBACK_BYTES);
            this.buffer = direct != null ? direct : ByteBuffer.allocate(size);
            buffer.limit(0);
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            if (!buffer.hasRemaining()) {
                buffer.clear().limit((int) Math.min(size, maxBytes));
                int read = sourceFile != null ? sourceFile.read(buffer, start + transferred) : source.read(buffer);
                buffer.flip();
                if (read <= 0) {
                    stalledOn = Side.SOURCE;
                    return read;
                }
            }
            stalledOn = Side.TARGET;
            int limit = buffer.limit();
            if (buffer.remaining() > maxBytes) {
                buffer.limit(buffer.position() + (int) maxBytes);
            }
            try {
                return target.write(buffer);
            } finally {
                buffer.limit(limit);
            }
        }

        @Override
        public Side stalledOn() {
            return stalledOn;
        }

        @Override
        public void close() {
            if (buffer.isDirect()) {
                DirectBuffers.SHARED.release(buffer);
            }
        }

        @Override
        public String toString() {
            return NAME + "(" + (buffer.isDirect() ? "direct " : "heap ") + size + ")";
        }
    }
}
