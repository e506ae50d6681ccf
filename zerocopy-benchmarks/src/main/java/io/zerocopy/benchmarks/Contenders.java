package io.zerocopy.benchmarks;

import com.google.common.io.ByteStreams;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.io.IOUtils;

/**
 * The ways of copying that the benchmarks compare. Every contender opens the source file itself,
 * once per operation, as a caller copying one file would.
 *
 * <ul>
 *   <li>{@code default}: {@code Transfers.copy}, the library choosing;
 *   <li>{@code transferTo}, {@code mmap}, {@code buffered}, {@code transferFrom}: the library with
 *       that strategy forced;
 *   <li>{@code bufferedMss}: the library's buffered strategy with a buffer of four loopback MSS
 *       (4 x 65,483 bytes) instead of 256 KiB, so that no write to loopback ends in a runt segment
 *       (to a loopback peer the library now rounds 256 KiB down to the same size by itself, so
 *       there {@code buffered} and {@code bufferedMss} run the same code; to veth they differ);
 *   <li>{@code rawTransferTo}: {@code FileChannel.transferTo} in a loop, asking for all that is
 *       left each time;
 *   <li>{@code rawMmap}: map 64 MiB windows and write each one (the mappings are left to the
 *       garbage collector, as plain JDK code has to);
 *   <li>{@code classic4k}: {@code FileInputStream} read into a 4 KiB array, written to the stream;
 *   <li>{@code guava}: {@code ByteStreams.copy} (its channel form when both ends are channels);
 *   <li>{@code commonsIo}: {@code IOUtils.copyLarge} on the streams;
 *   <li>{@code streamTransferTo}: {@code InputStream.transferTo}.
 * </ul>
 *
 * <p>The raw loops are {@link RawLoops}'s, shared with the other benchmarks of this module.
 */
final class Contenders {
    static final long RAW_MMAP_WINDOW = 64L << 20;

    /** Four times the loopback MSS here (MTU 65,536 less 53 bytes of headers and options). */
    static final int FOUR_LOOPBACK_MSS = 4 * 65_483;

    private static final Map<String, TransferOptions> FORCED = new ConcurrentHashMap<>();

    private static final TransferOptions BUFFERED_MSS = TransferOptions.builder()
            .strategy("buffered")
            .bufferSize(FOUR_LOOPBACK_MSS)
            .build();

    private Contenders() {}

    /** The library with {@code strategy} forced. */
    static TransferOptions forced(String strategy) {
        return FORCED.computeIfAbsent(
                strategy, s -> TransferOptions.builder().strategy(s).build());
    }

    /**
     * What the library's default picks for this kind of copy, for the report: strategy and reason
     * of one transfer run through a listening copier.
     */
    static String defaultChoice(IoAction<TransferOptions> transfer) throws IOException {
        TransferResult[] seen = new TransferResult[1];
        TransferOptions listening = TransferOptions.builder()
                .listener(new TransferListener() {
                    @Override
                    public void onComplete(TransferResult result) {
                        seen[0] = result;
                    }
                })
                .build();
        transfer.run(listening);
        return seen[0] == null ? "unknown" : seen[0].strategy() + " (" + seen[0].reason() + ")";
    }

    /**
     * Copies the whole of {@code source} to a channel target, by {@code contender}.
     *
     * @param channel the target as a channel
     * @param stream the same target as a stream, for the stream contenders
     */
    static long fromFile(String contender, Path source, WritableByteChannel channel, OutputStream stream)
            throws IOException {
        return switch (contender) {
            case "default" -> Transfers.copy(source, channel);
            case "transferTo", "mmap", "buffered" -> Transfers.copy(source, channel, forced(contender));
            case "bufferedMss" -> Transfers.copy(source, channel, BUFFERED_MSS);
            case "rawTransferTo" -> RawLoops.transferTo(source, channel);
            case "rawMmap" -> RawLoops.mmap(source, channel, RAW_MMAP_WINDOW);
            case "guava" -> {
                try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
                    yield ByteStreams.copy(in, channel);
                }
            }
            default -> {
                try (InputStream in = new FileInputStream(source.toFile())) {
                    yield fromStream(contender, in, stream);
                }
            }
        };
    }

    /** Copies a stream to a stream by one of the stream contenders, or the library. */
    static long fromStream(String contender, InputStream in, OutputStream out) throws IOException {
        return switch (contender) {
            case "default" -> Transfers.copy(in, out);
            case "buffered" -> Transfers.copy(in, out, forced(contender));
            case "classic4k" -> RawLoops.classic4k(in, out);
            case "guava" -> ByteStreams.copy(in, out);
            case "commonsIo" -> IOUtils.copyLarge(in, out);
            case "streamTransferTo" -> in.transferTo(out);
            default -> throw new IllegalArgumentException("contender: " + contender + " (unknown)");
        };
    }

    /** Copies a channel to its end of stream into a file, by {@code contender}. */
    static long intoFile(
            String contender,
            ReadableByteChannel source,
            InputStream sourceStream,
            FileChannel target,
            OutputStream targetStream)
            throws IOException {
        return switch (contender) {
            case "default" -> Transfers.copy(source, target);
            case "buffered", "transferFrom" -> Transfers.copy(source, target, forced(contender));
            case "rawTransferFrom" -> RawLoops.transferFrom(source, target);
            case "guava" -> ByteStreams.copy(source, target);
            default -> fromStream(contender, sourceStream, targetStream);
        };
    }

    /** An I/O action on a value. */
    @FunctionalInterface
    interface IoAction<T> {
        void run(T value) throws IOException;
    }
}
