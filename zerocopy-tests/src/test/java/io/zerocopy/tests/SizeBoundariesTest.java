package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sizes and positions at the places where 32-bit and per-call limits bite: counts of 0, 1, 4095,
 * 4096, 4097, 0x7ffff000 +/- 1, 2^31 - 1, 2^31, 2^31 + 1 and 2^32 + 1, and slices that straddle
 * 0x7ffff000, 2 GiB and 4 GiB, from a file to a loopback socket, a file to a file and a socket to a
 * file, for the default selection and every strategy that serves the pair.
 *
 * <p>All of them read one sparse file of 2^32 + 1 bytes: holes (zeros, no disk space) except for
 * random bytes on both sides of every boundary. What arrives is hashed as it streams (CRC32C) and
 * compared with the hash of the same range computed from the in-memory model of the file, so no
 * gigabyte is ever held or read twice. Full-length transfers beyond 2 GiB run where they say
 * something new: each strategy once from file to socket over the whole 4 GiB + 1, the default
 * selection for each large count, and one 4 GiB + 1 copy into a file and one out of a socket (their
 * dense targets go to {@code /dev/shm} when it has room, and are deleted at once). Tagged slow: under
 * a minute on two cores.
 */
@Tag("slow")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SizeBoundariesTest {
    private static final long SEED = Seeds.announce(SizeBoundariesTest.class);

    /** Linux's MAX_RW_COUNT: no read, write, sendfile or copy_file_range moves more in one call. */
    private static final long LINUX_PER_CALL_CAP = 0x7ffff000L;

    private static final long TWO_GIB = 1L << 31;
    private static final long FOUR_GIB = 1L << 32;
    private static final long FILE_SIZE = FOUR_GIB + 1;

    private static final long[] SMALL = {0, 1, 4095, 4096, 4097};
    private static final long[] LARGE = {
        LINUX_PER_CALL_CAP - 1, LINUX_PER_CALL_CAP + 1, TWO_GIB - 1, TWO_GIB, TWO_GIB + 1
    };
    /** Small slices are centred on each of these, so they straddle it. */
    private static final long[] MARKS = {0, LINUX_PER_CALL_CAP, TWO_GIB, FOUR_GIB};
    /** Random bytes on each side of every boundary, so a slip by any amount up to this shows in the hash. */
    private static final int MARKER_RADIUS = 6000;

    private static final String[] FROM_FILE = {"auto", "transferTo", "mmap", "buffered"};
    private static final String[] FROM_SOCKET = {"auto", "buffered", "transferFrom"};

    /** One block of random bytes in the sparse file. */
    private record Block(long offset, byte[] bytes) {
        long end() {
            return offset + bytes.length;
        }
    }

    @TempDir
    static Path dir;

    private static Path file;
    private static final List<Block> BLOCKS = new ArrayList<>();
    /** Where dense targets go: tmpfs if it has room, so 4 GiB are not written to disk. */
    private static Path scratch;

    @BeforeAll
    static void createSparseFile() throws IOException {
        Random random = new Random(SEED);
        long[] boundaries = {0, 4096, LINUX_PER_CALL_CAP, TWO_GIB, FOUR_GIB, FILE_SIZE};
        long coveredTo = 0;
        for (long boundary : boundaries) {
            long from = Math.max(coveredTo, boundary - MARKER_RADIUS);
            long to = Math.min(FILE_SIZE, boundary + MARKER_RADIUS);
            if (to > from) {
                byte[] bytes = new byte[(int) (to - from)];
                random.nextBytes(bytes);
                BLOCKS.add(new Block(from, bytes));
                coveredTo = to;
            }
        }
        file = dir.resolve("sparse-4g");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (Block block : BLOCKS) {
                channel.write(ByteBuffer.wrap(block.bytes()), block.offset());
            }
            assertThat(channel.size()).as("the sparse file's size").isEqualTo(FILE_SIZE);
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.getFileStore(shm).getUsableSpace() > FILE_SIZE + (1L << 30)) {
            scratch = Files.createTempDirectory(shm, "zerocopy-sizes-");
        } else {
            long free = Files.getFileStore(dir).getUsableSpace();
            assumeTrue(
                    free > 2 * FILE_SIZE,
                    () -> "skipped: needs 9 GiB free in " + dir + " for a dense 4 GiB copy, has " + (free >> 20)
                            + " MiB");
            scratch = Files.createDirectory(dir.resolve("scratch"));
        }
    }

    @AfterAll
    static void deleteFiles() throws IOException {
        if (scratch != null) {
            try (Stream<Path> files = Files.walk(scratch)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** CRC32C of {@code count} bytes of the file from {@code position}, computed from the model. */
    private static long expectedCrc(long position, long count) {
        CRC32C crc = new CRC32C();
        byte[] zeros = new byte[1 << 20];
        long at = position;
        long end = position + count;
        for (Block block : BLOCKS) {
            if (block.end() <= at || block.offset() >= end) {
                continue;
            }
            for (long gap = block.offset() - at; gap > 0; gap -= zeros.length) {
                crc.update(zeros, 0, (int) Math.min(gap, zeros.length));
            }
            at = Math.max(at, block.offset());
            int from = (int) (at - block.offset());
            int to = (int) (Math.min(end, block.end()) - block.offset());
            crc.update(block.bytes(), from, to - from);
            at = block.offset() + to;
        }
        for (long gap = end - at; gap > 0; gap -= zeros.length) {
            crc.update(zeros, 0, (int) Math.min(gap, zeros.length));
        }
        return crc.getValue();
    }

    /** A slice of {@code count} bytes centred on {@code mark}, inside the file. */
    private static long centredOn(long mark, long count) {
        return Math.max(0, Math.min(mark - count / 2, FILE_SIZE - count));
    }

    private static Arguments slice(String strategy, long position, long count) {
        return Arguments.of(strategy, position, count, SEED);
    }

    /** Every small size, centred on every mark, for each of {@code strategies}. */
    private static List<Arguments> smallSlices(String[] strategies) {
        List<Arguments> cases = new ArrayList<>();
        for (String strategy : strategies) {
            for (long size : SMALL) {
                for (long mark : MARKS) {
                    cases.add(slice(strategy, centredOn(mark, size), size));
                }
            }
        }
        return cases;
    }

    static Stream<Arguments> fileToSocket() {
        List<Arguments> cases = smallSlices(FROM_FILE);
        for (long size : LARGE) {
            cases.add(slice("auto", 0, size));
        }
        // One forced strategy per large slice, each straddling a different limit.
        cases.add(slice("transferTo", FOUR_GIB - TWO_GIB / 2, TWO_GIB / 2 + 1));
        cases.add(slice("mmap", LINUX_PER_CALL_CAP - 12345, TWO_GIB + 1));
        cases.add(slice("buffered", TWO_GIB - 4097, TWO_GIB / 2));
        for (String strategy : FROM_FILE) {
            cases.add(slice(strategy, 0, FILE_SIZE));
        }
        return cases.stream();
    }

    static Stream<Arguments> fileToFile() {
        List<Arguments> cases = smallSlices(FROM_FILE);
        // 1 GiB + 4097 bytes from 1 GiB: across 0x7ffff000 and 2 GiB, in the source and the target.
        cases.add(slice("mmap", 1L << 30, (1L << 30) + 4097));
        cases.add(slice("auto", 0, FILE_SIZE));
        return cases.stream();
    }

    static Stream<Arguments> socketToFile() {
        List<Arguments> cases = smallSlices(FROM_SOCKET);
        cases.add(slice("auto", 0, FILE_SIZE));
        return cases.stream();
    }

    private static TransferOptions copier(String strategy, RecordingListener listener, long count) {
        TransferOptions.Builder options = TransferOptions.builder().listener(listener);
        if (!strategy.equals("auto")) {
            options.strategy(strategy);
        }
        if (strategy.equals("mmap") && count > TWO_GIB) {
            options.mappedWindow(1L << 30); // fewer, larger windows: a window edge lands inside the slice
        }
        return options.build();
    }

    @ParameterizedTest(name = "{0}: {2} bytes at {1} (seed {3})")
    @MethodSource("fileToSocket")
    void copy_fileToLoopbackSocket(String strategy, long position, long count, long seed) throws Exception {
        RecordingListener listener = new RecordingListener();
        TransferOptions copier = copier(strategy, listener, count);
        long sent;
        LoopbackReceiver.Received received;
        // The system's buffer sizes: a 16 KiB window would make gigabytes take far too long.
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            try (SocketChannel channel = receiver.connectChannel()) {
                if (count == FILE_SIZE) {
                    sent = Transfers.copy(file, (WritableByteChannel) channel, copier);
                } else {
                    try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
                        sent = Transfers.copy(source, position, count, channel, copier);
                    }
                }
            }
            received = receiver.received();
        }

        assertThat(sent).as("returned count").isEqualTo(count);
        assertThat(received.bytes()).as("bytes the peer received").isEqualTo(count);
        assertThat(received.crc32c()).as("CRC32C of what the peer received").isEqualTo(expectedCrc(position, count));
        assertThat(listener.strategy())
                .isEqualTo(strategy.equals("auto") ? TestFiles.defaultFileToSocket(count) : strategy);
        assertThat(listener.largestStep()).as("largest single step").isLessThanOrEqualTo(LINUX_PER_CALL_CAP);
        if (count > LINUX_PER_CALL_CAP) {
            assertThat(listener.steps())
                    .as("steps: more than one call is needed")
                    .isGreaterThanOrEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}: {2} bytes at {1} (seed {3})")
    @MethodSource("fileToFile")
    void copy_fileToFile(String strategy, long position, long count, long seed) throws Exception {
        RecordingListener listener = new RecordingListener();
        TransferOptions copier = copier(strategy, listener, count);
        Path target = scratch.resolve("file-copy");
        try {
            long copied;
            if (count == FILE_SIZE) {
                copied = Transfers.copy(file, target, copier);
            } else {
                // Written at the same position, so the target's own offsets cross the same limits.
                try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ);
                        FileChannel out =
                                FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    out.position(position);
                    copied = Transfers.copy(source, position, count, out, copier);
                    assertThat(out.position()).as("target position").isEqualTo(position + count);
                }
            }

            assertWritten(target, position, count, copied);
            assertThat(listener.strategy()).isEqualTo(strategy.equals("auto") ? "transferTo" : strategy);
        } finally {
            Files.deleteIfExists(target);
        }
    }

    @ParameterizedTest(name = "{0}: {2} bytes at {1} (seed {3})")
    @MethodSource("socketToFile")
    void copy_loopbackSocketToFile(String strategy, long position, long count, long seed) throws Exception {
        RecordingListener listener = new RecordingListener();
        TransferOptions copier = copier(strategy, listener, count);
        Path target = scratch.resolve("socket-copy");
        try (LoopbackSender sender = LoopbackSender.toChannel(file, position, count)) {
            long copied;
            try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                // The target is written at the slice's own position: offsets past 2 and 4 GiB.
                out.position(position);
                copied = Transfers.copy((ReadableByteChannel) sender.channel(), out, copier);
                assertThat(out.position()).as("target position").isEqualTo(position + count);
            }
            sender.awaitSent();

            assertWritten(target, position, count, copied);
            assertThat(listener.strategy()).isEqualTo(strategy.equals("auto") ? "buffered" : strategy);
        } finally {
            Files.deleteIfExists(target);
        }
    }

    /** The target holds the file's slice at the same position, and nothing after it. */
    private static void assertWritten(Path target, long position, long count, long copied) throws IOException {
        assertThat(copied).as("returned count").isEqualTo(count);
        try (FileChannel written = FileChannel.open(target, StandardOpenOption.READ)) {
            assertThat(written.size()).as("target size").isEqualTo(count == 0 ? 0 : position + count);
            assertThat(TestFiles.crc32c(written, position, count))
                    .as("CRC32C of the copy")
                    .isEqualTo(expectedCrc(position, count));
        }
    }
}
