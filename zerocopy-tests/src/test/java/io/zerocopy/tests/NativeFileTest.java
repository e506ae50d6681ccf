package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.FileRegion;
import io.zerocopy.OpenFile;
import io.zerocopy.Transfer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The native file path (Java 22+ on Linux with native access; this module's native-access run):
 * {@code copy(Path, ...)} and {@link OpenFile} open with {@code openat} and {@code fstat}, and the
 * {@code native} strategy sends what they opened. Each promise is checked through that path: every
 * byte at each size and past 4 GiB, the attributes, a shrinking file, a FIFO, a directory, an
 * interrupt, a peer's reset, the options that turn it off, and no descriptor left open.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeFileTest {
    private static final long SEED = Seeds.announce(NativeFileTest.class);
    private static final TransferOptions NATIVE =
            TransferOptions.builder().strategy("native").build();

    @TempDir
    Path dir;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(ThreadKind.PLATFORM);

    @Test
    void openFile_opensNativelyWithTheJdksAttributes() throws Exception {
        Path file = TestFiles.write(dir.resolve("a"), TestFiles.randomBytes(5000, SEED));
        BasicFileAttributes jdk = Files.readAttributes(file, BasicFileAttributes.class);
        try (OpenFile opened = OpenFile.open(file)) {
            assertThat(opened.openedNatively())
                    .as("opened natively (this run enables native access)")
                    .isTrue();
            BasicFileAttributes a = opened.attributes();
            assertThat(a.size()).isEqualTo(5000);
            assertThat(a.isRegularFile()).isTrue();
            assertThat(a.isDirectory() || a.isOther() || a.isSymbolicLink()).isFalse();
            assertThat(a.lastModifiedTime()).isEqualTo(jdk.lastModifiedTime());
            assertThat(a.fileKey()).hasToString(jdk.fileKey().toString());
            assertThat(a.fileKey().hashCode()).isEqualTo(jdk.fileKey().hashCode());
            assertThat(opened.channel().size()).isEqualTo(5000);
        }
    }

    /** One call on a channel, as what it returned or the class of what it threw. */
    interface ChannelCall {
        Object on(FileChannel channel) throws Exception;
    }

    /** {@code map(READ_ONLY, 0, 100, Arena.ofAuto())}, Java 22's, by reflection (this module compiles for 17); the segment's size. */
    private static Object mapWithAnArena(FileChannel channel) throws Exception {
        Class<?> arena = Class.forName("java.lang.foreign.Arena");
        Method map = FileChannel.class.getMethod("map", FileChannel.MapMode.class, long.class, long.class, arena);
        try {
            Object segment = map.invoke(
                    channel,
                    FileChannel.MapMode.READ_ONLY,
                    0L,
                    100L,
                    arena.getMethod("ofAuto").invoke(null));
            return segment.getClass().getMethod("byteSize").invoke(segment);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static String outcome(ChannelCall call, FileChannel channel) {
        try {
            return "returned " + call.on(channel);
        } catch (Exception e) {
            return "threw " + e.getClass().getSimpleName();
        }
    }

    /**
     * An {@code OpenFile}'s channel on this path is the library's own, and a caller may call any
     * method of {@code FileChannel} on it: each answers as a read-only JDK channel on the same file
     * does, open and closed, checks in the JDK's order, and a failed check touches nothing.
     */
    @Test
    void openFilesChannel_answersEveryCallAsAReadOnlyJdkChannel() throws Exception {
        byte[] data = TestFiles.randomBytes(1 << 20, SEED);
        Path file = TestFiles.write(dir.resolve("as-jdk"), data);
        Map<String, ChannelCall> calls = new LinkedHashMap<>();
        calls.put("write", c -> c.write(ByteBuffer.allocate(1)));
        calls.put("write gathering", c -> c.write(new ByteBuffer[] {ByteBuffer.allocate(1)}, 0, 1));
        calls.put("write gathering, bad offset", c -> c.write(new ByteBuffer[1], 2, 1));
        calls.put("write at", c -> c.write(ByteBuffer.allocate(1), 0));
        calls.put("write at, null", c -> c.write(null, 0));
        calls.put("write at, negative", c -> c.write(ByteBuffer.allocate(1), -1));
        calls.put("truncate", c -> c.truncate(0));
        calls.put("truncate, negative", c -> c.truncate(-1));
        calls.put(
                "transferFrom", c -> c.transferFrom(Channels.newChannel(new ByteArrayInputStream(new byte[1])), 0, 1));
        calls.put("exclusive lock", c -> c.lock(0, 1, false));
        calls.put("exclusive tryLock", c -> c.tryLock(0, 1, false));
        calls.put("read, null", c -> c.read((ByteBuffer) null));
        calls.put("read, read-only", c -> c.read(ByteBuffer.allocate(1).asReadOnlyBuffer()));
        calls.put("read at, read-only", c -> c.read(ByteBuffer.allocate(1).asReadOnlyBuffer(), 0));
        calls.put("scattering read of none", c -> c.read(new ByteBuffer[0], 0, 0));
        calls.put("position, negative", c -> c.position(-1));
        calls.put("force", c -> {
            c.force(true);
            return "forced";
        });
        // a kept lock holds its channel, whose release when unreachable would drop the lock
        calls.put("shared lock, taken on this channel", c -> {
            try (FileLock lock = c.lock(0, 1, true)) {
                return lock.acquiredBy() == c && lock.isValid();
            }
        });
        calls.put("shared tryLock, taken on this channel", c -> {
            try (FileLock lock = c.tryLock(0, 1, true)) {
                return lock.acquiredBy() == c && lock.isValid();
            }
        });
        if (Runtime.version().feature() >= 22) {
            calls.put("map with an arena", NativeFileTest::mapWithAnArena);
        }
        calls.put("read at, a heap buffer of the whole file", c -> c.read(ByteBuffer.allocate(data.length), 0));
        calls.put("read, a heap buffer of the whole file", c -> c.read(ByteBuffer.allocate(data.length)));
        ByteBuffer first = ByteBuffer.allocate(10);
        calls.put("scattering read, the second buffer read-only", c -> {
            first.clear();
            try {
                return c.read(new ByteBuffer[] {first, ByteBuffer.allocate(10).asReadOnlyBuffer()}, 0, 2);
            } finally {
                assertThat(first.position()).as("the first buffer untouched").isZero();
                assertThat(c.isOpen() ? c.position() : 0)
                        .as("the position unmoved")
                        .isZero();
            }
        });
        try (OpenFile opened = OpenFile.open(file);
                FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ)) {
            FileChannel own = opened.channel();
            assertThat(own.getClass().getModule())
                    .as("the library's own channel")
                    .isNotEqualTo(jdk.getClass().getModule());
            for (boolean open : new boolean[] {true, false}) {
                if (!open) {
                    own.close();
                    jdk.close();
                }
                for (Map.Entry<String, ChannelCall> call : calls.entrySet()) {
                    if (open) {
                        own.position(0);
                        jdk.position(0);
                    }
                    assertThat(outcome(call.getValue(), own))
                            .as("%s, %s", call.getKey(), open ? "open" : "closed")
                            .isEqualTo(outcome(call.getValue(), jdk));
                }
            }
        }
    }

    /**
     * Positions at and past the file system's limit, and near {@code Long.MAX_VALUE}, answered as a
     * read-only JDK channel on the same file answers them: the JDK's {@code lseek} refuses a
     * position past the largest file the file system holds (16 TiB less 4 KiB on ext4, none below
     * {@code Long.MAX_VALUE} on tmpfs), and the kernel refuses a read whose end passes
     * {@code Long.MAX_VALUE}. The limit is the JDK channel's, found at run time, on the test's
     * directory and on {@code /dev/shm} where there is one; a failure's message names the problem
     * as the JDK's does.
     */
    @Test
    void openFilesChannel_answersPositionsPastTheFileSystemsLimitAsAReadOnlyJdkChannel() throws Exception {
        Path shm = Path.of("/dev/shm");
        Path elsewhere = Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "zerocopy-positions-")
                : null;
        SoftAssertions softly = new SoftAssertions(); // every difference, not just the first
        try {
            for (Path where : elsewhere == null ? new Path[] {dir} : new Path[] {dir, elsewhere}) {
                Path file = TestFiles.write(where.resolve("positions"), TestFiles.randomBytes(4096, SEED));
                try (OpenFile opened = OpenFile.open(file);
                        FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ)) {
                    answerPositionsAlike(softly, opened.channel(), jdk, largestPosition(jdk));
                } finally {
                    Files.delete(file);
                }
            }
        } finally {
            if (elsewhere != null) {
                Files.delete(elsewhere);
            }
        }
        softly.assertAll();
    }

    /** The largest position {@code channel} takes: the file system's limit, as its {@code lseek} says. */
    private static long largestPosition(FileChannel channel) throws IOException {
        long low = 0;
        long high = Long.MAX_VALUE;
        while (low < high) {
            long middle = low + ((high - low + 1) >>> 1);
            try {
                channel.position(middle);
                low = middle;
            } catch (IOException refused) {
                high = middle - 1;
            }
        }
        channel.position(0);
        return low;
    }

    private static void answerPositionsAlike(SoftAssertions softly, FileChannel own, FileChannel jdk, long limit)
            throws IOException {
        WritableByteChannel sink = Channels.newChannel(OutputStream.nullOutputStream());
        long[] positions = {
            limit - 4,
            limit,
            limit + 1,
            limit + 4096,
            1L << 62,
            Long.MAX_VALUE - (1 << 19),
            Long.MAX_VALUE - 10,
            Long.MAX_VALUE - 1,
            Long.MAX_VALUE
        };
        for (long p : positions) {
            if (p < 0) {
                continue; // past Long.MAX_VALUE: tmpfs's limit is Long.MAX_VALUE itself
            }
            Map<String, ChannelCall> calls = new LinkedHashMap<>();
            calls.put("position", c -> c.position(p).position());
            calls.put("position, then read", c -> c.position(p).read(ByteBuffer.allocate(16)));
            calls.put("position, then a whole heap buffer", c -> c.position(p).read(ByteBuffer.allocate(1 << 20)));
            calls.put(
                    "position, then scattering read",
                    c -> c.position(p).read(new ByteBuffer[] {ByteBuffer.allocate(8), ByteBuffer.allocate(8)}));
            calls.put("read at, 1 byte", c -> c.read(ByteBuffer.allocate(1), p));
            calls.put("read at, 16 bytes", c -> c.read(ByteBuffer.allocate(16), p));
            calls.put("read at, a direct buffer", c -> c.read(ByteBuffer.allocateDirect(16), p));
            calls.put("read at, a heap buffer of 1 MiB", c -> c.read(ByteBuffer.allocate(1 << 20), p));
            calls.put("read at, nothing to read into", c -> c.read(ByteBuffer.allocate(0), p));
            calls.put("transferTo, 1 byte", c -> c.transferTo(p, 1, sink));
            calls.put("transferTo, Long.MAX_VALUE bytes", c -> c.transferTo(p, Long.MAX_VALUE, sink));
            calls.put("map, 1 byte", c -> c.map(FileChannel.MapMode.READ_ONLY, p, 1));
            calls.put("map, 0 bytes", c -> c.map(FileChannel.MapMode.READ_ONLY, p, 0));
            calls.put("shared lock", c -> {
                try (FileLock lock = c.lock(p, 1, true)) {
                    return lock.position() + "+" + lock.size();
                }
            });
            for (Map.Entry<String, ChannelCall> call : calls.entrySet()) {
                own.position(0);
                jdk.position(0);
                Answer expected = Answer.of(call.getValue(), jdk);
                Answer actual = Answer.of(call.getValue(), own);
                String what = call.getKey() + " at " + p + " (the file system's limit: " + limit + ")";
                softly.assertThat(actual.outcome()).as(what).isEqualTo(expected.outcome());
                if (expected.message() != null && actual.outcome().equals(expected.outcome())) {
                    softly.assertThat(actual.message())
                            .as("%s: the message", what)
                            .contains(expected.message());
                }
            }
        }
    }

    /** What one call on a channel did: returned a value or threw, and the message of what it threw. */
    record Answer(String outcome, String message) {
        static Answer of(ChannelCall call, FileChannel channel) {
            try {
                return new Answer("returned " + call.on(channel), null);
            } catch (Exception e) {
                return new Answer("threw " + e.getClass().getName(), e.getMessage());
            }
        }
    }

    @ParameterizedTest(name = "{0} thread")
    @EnumSource(ThreadKind.class)
    void copyPath_everySize_sendsEveryByte_natively(ThreadKind threads) throws Exception {
        for (int size : new int[] {0, 1, 4096, 8192, 8193, 65536, 1 << 20}) {
            byte[] data = TestFiles.randomBytes(size, SEED + size);
            Path file = TestFiles.write(dir.resolve("f" + size), data);
            for (TransferOptions options : new TransferOptions[] {TransferOptions.defaults(), NATIVE}) {
                RecordingListener listener = new RecordingListener();
                TransferOptions copier = options.toBuilder().listener(listener).build();
                try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
                    try (SocketChannel channel = receiver.connectChannel()) {
                        long n = threads.call(() -> Transfers.copy(file, (WritableByteChannel) channel, copier));
                        assertThat(n).as("returned, %d bytes", size).isEqualTo(size);
                    }
                    LoopbackReceiver.Received got = receiver.received();
                    assertThat(got.bytes()).as("received, %d bytes", size).isEqualTo(size);
                    assertThat(got.crc32c()).as("crc32c, %d bytes", size).isEqualTo(TestFiles.crc32c(data));
                }
                if (size > 0) {
                    // this run reads a socket's descriptor: above one read (8 KiB to this host) sendfile from the same
                    // open
                    assertThat(listener.strategy())
                            .as("strategy, %d bytes", size)
                            .isEqualTo("native");
                    assertThat(listener.result().reason())
                            .as("reason, %d bytes", size)
                            .contains(size <= 8192 ? "pread" : "sendfile");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} thread")
    @EnumSource(ThreadKind.class)
    void smallFilesWithNothingWatching_sendEveryByte_withAndWithoutAPrefix(ThreadKind threads) throws Exception {
        // no listener: what fits one read goes by the small send, without a transfer; the rest as one
        byte[] head = "HTTP/1.1 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int size : new int[] {1, 4096, 65536, 65537, 80 * 1024, 80 * 1024 + 1}) {
            byte[] data = TestFiles.randomBytes(size, SEED + size);
            Path file = TestFiles.write(dir.resolve("s" + size), data);
            ByteBuffer prefix = ByteBuffer.wrap(head);
            try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
                try (SocketChannel channel = receiver.connectChannel();
                        OpenFile opened = OpenFile.open(file)) {
                    assertThat(threads.call(() -> Transfers.copy(file, (WritableByteChannel) channel)))
                            .as("copy(Path), %d bytes", size)
                            .isEqualTo(size);
                    FileRegion region = FileRegion.of(opened.channel(), 0, size).withPrefix(new ByteBuffer[] {prefix});
                    assertThat(threads.call(() -> Transfers.copy(region, channel)))
                            .as("copy(region), %d bytes", size)
                            .isEqualTo(head.length + size);
                }
                byte[] expected = fileThenHeadAndFile(data, head);
                LoopbackReceiver.Received got = receiver.received();
                assertThat(got.bytes()).as("received, %d bytes", size).isEqualTo(expected.length);
                assertThat(got.crc32c()).as("crc32c, %d bytes", size).isEqualTo(TestFiles.crc32c(expected));
            }
            assertThat(prefix.hasRemaining()).as("the prefix is consumed").isFalse();
        }
    }

    @Test
    void openedSmallFilesWithNothingWatching_onANonBlockingSocket_sendEveryByte() throws Exception {
        // the event loop's way: what fits one read goes as a small send the caller drives
        byte[] head = "HTTP/1.1 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int size : new int[] {1, 4096, 65536, 65537, 80 * 1024, 80 * 1024 + 1}) {
            byte[] data = TestFiles.randomBytes(size, SEED + size);
            Path file = TestFiles.write(dir.resolve("n" + size), data);
            ByteBuffer prefix = ByteBuffer.wrap(head);
            try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER)) {
                try (SocketChannel channel = receiver.connectChannel();
                        OpenFile opened = OpenFile.open(file);
                        Selector selector = Selector.open()) {
                    channel.configureBlocking(false);
                    SelectionKey key = channel.register(selector, 0);
                    Transfer whole = Transfers.open(file, channel);
                    Transfer region = Transfers.open(
                            FileRegion.of(opened.channel(), 0, size).withPrefix(new ByteBuffer[] {prefix}), channel);
                    whole.advance(); // as far as the closed gate lets it
                    receiver.openGate();
                    assertThat(driven(whole, key).bytesTransferred())
                            .as("open(Path), %d bytes", size)
                            .isEqualTo(size);
                    TransferResult result = driven(region, key);
                    assertThat(result.bytesTransferred())
                            .as("open(region), %d bytes", size)
                            .isEqualTo(head.length + size);
                    assertThat(result.strategy()).isEqualTo("native");
                    if (size > 80 * 1024) { // a body partly with the prefix: its size, not the rest's
                        assertThat(result.reason()).startsWith(size + " bytes of a file");
                    }
                }
                byte[] expected = fileThenHeadAndFile(data, head);
                LoopbackReceiver.Received got = receiver.received();
                assertThat(got.bytes()).as("received, %d bytes", size).isEqualTo(expected.length);
                assertThat(got.crc32c()).as("crc32c, %d bytes", size).isEqualTo(TestFiles.crc32c(expected));
            }
            assertThat(prefix.hasRemaining()).as("the prefix is consumed").isFalse();
        }
    }

    @Test
    void openedSmallFilesWithNothingWatching_keepToAForcedOrExcludedStrategy() throws Exception {
        // the small send's handle takes a file only where native may send it, as the selection says
        byte[] data = TestFiles.randomBytes(4096, SEED);
        Path file = TestFiles.write(dir.resolve("kept"), data);
        TransferOptions[] options = {
            NATIVE,
            TransferOptions.builder().exclude("native").build(),
            TransferOptions.builder().strategy("transferTo").build()
        };
        for (TransferOptions o : options) {
            try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
                TransferResult result;
                try (SocketChannel channel = receiver.connectChannel();
                        Transfer transfer = Transfers.open(file, channel, o)) {
                    for (int i = 0; i < 1000 && !transfer.isDone(); i++) {
                        transfer.advance(); // a blocking socket: each call writes
                    }
                    result = transfer.result();
                }
                assertThat(receiver.received().crc32c()).as("%s", o).isEqualTo(TestFiles.crc32c(data));
                if (o == NATIVE) {
                    assertThat(result.strategy()).as("%s", o).isEqualTo("native");
                } else {
                    assertThat(result.strategy()).as("%s", o).isNotEqualTo("native");
                }
            }
        }
    }

    /** Drives {@code transfer} to its end as a selector loop does, within a deadline; returns its result. */
    private static TransferResult driven(Transfer transfer, SelectionKey key) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (transfer) {
            while (!transfer.isDone()) {
                assertThat(System.nanoTime()).as("done within 30 s").isLessThan(deadline);
                if (transfer.advance() == 0 && !transfer.isDone()) {
                    assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);
                    key.interestOps(transfer.interestOps());
                    key.selector().select(1000);
                    key.selector().selectedKeys().clear();
                }
            }
            return transfer.result();
        }
    }

    /** The bytes of a file sent whole, then of the same file after {@code head}. */
    private static byte[] fileThenHeadAndFile(byte[] data, byte[] head) {
        byte[] expected = new byte[2 * data.length + head.length];
        System.arraycopy(data, 0, expected, 0, data.length);
        System.arraycopy(head, 0, expected, data.length, head.length);
        System.arraycopy(data, 0, expected, data.length + head.length, data.length);
        return expected;
    }

    @Test
    void aSmallRegionPastTheEndOfItsFile_failsAsATransferDoes_andSendsNothing() throws Exception {
        Path file = TestFiles.write(dir.resolve("short"), TestFiles.randomBytes(100, SEED));
        byte[] head = "HTTP/1.1 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer prefix = ByteBuffer.wrap(head);
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            try (SocketChannel channel = receiver.connectChannel();
                    OpenFile opened = OpenFile.open(file)) {
                FileRegion region = FileRegion.of(opened.channel(), 0, 200).withPrefix(new ByteBuffer[] {prefix});
                assertThatThrownBy(() -> Transfers.copy(region, channel))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("200");
            }
            assertThat(receiver.received().bytes()).isZero();
        }
        assertThat(prefix.remaining()).as("the prefix is left as it was").isEqualTo(head.length);
    }

    @Test
    void copyPath_largeFileToAChannelWithoutADescriptor_goesThroughAJdkChannelOverTheSameOpen() throws Exception {
        byte[] data = TestFiles.randomBytes(1 << 20, SEED);
        Path file = TestFiles.write(dir.resolve("large"), data);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        RecordingListener listener = new RecordingListener();
        long n = Transfers.copy(
                file,
                java.nio.channels.Channels.newChannel(out),
                TransferOptions.builder().listener(listener).build());
        assertThat(n).isEqualTo(data.length);
        assertThat(out.toByteArray()).isEqualTo(data);
        assertThat(listener.strategy()).isNotEqualTo("native");
    }

    @Test
    void openFileRegion_past4GiB_sendsEveryByteWithThePrefix() throws Exception {
        long size = (4L << 30) + (1 << 20);
        long from = (4L << 30) - 5000;
        int count = 70_000; // crosses 4 GiB, and goes whole with its prefix
        Path file = TestFiles.sparse(dir.resolve("sparse"), size, SEED, 40_000, from, from + 40_000);
        byte[] head = "HTTP/1.1 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (TransferOptions options : new TransferOptions[] {TransferOptions.defaults(), NATIVE}) {
            RecordingListener listener = new RecordingListener();
            try (OpenFile opened = OpenFile.open(file);
                    LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
                long expectedCrc;
                try (FileChannel reader = FileChannel.open(file)) {
                    ByteBuffer all = ByteBuffer.allocate(head.length + count).put(head);
                    reader.read(all, from);
                    expectedCrc = TestFiles.crc32c(all.array());
                }
                try (SocketChannel channel = receiver.connectChannel()) {
                    Transfers.copy(
                            FileRegion.of(opened.channel(), from, count).withPrefix(ByteBuffer.wrap(head)),
                            channel,
                            options.toBuilder().listener(listener).build());
                }
                LoopbackReceiver.Received got = receiver.received();
                assertThat(got.bytes()).isEqualTo(head.length + count);
                assertThat(got.crc32c()).isEqualTo(expectedCrc);
                assertThat(listener.strategy()).isEqualTo("native");
            }
        }
    }

    @Test
    void forcedNative_fileShrinksMidway_isTruncatedSourceWithTheCount() throws Exception {
        int size = 8 << 20;
        int cut = 1 << 20;
        Path file = TestFiles.write(dir.resolve("shrinks"), TestFiles.randomBytes(size, SEED));
        try (OpenFile opened = OpenFile.open(file);
                LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            channel.configureBlocking(false);
            try (Transfer transfer = Transfers.open(FileRegion.of(opened.channel(), 0, size), channel, NATIVE)) {
                transfer.advance();
                assertThat(transfer.bytesTransferred())
                        .as("sent before the cut")
                        .isBetween(1L, (long) cut);
                try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    writer.truncate(cut);
                }
                receiver.openGate();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                TruncatedSourceException failure = catchThrowableOfType(TruncatedSourceException.class, () -> {
                    while (!transfer.isDone() && System.nanoTime() < deadline) {
                        transfer.advance();
                    }
                });
                assertThat(failure).as("TruncatedSourceException").isNotNull();
                assertThat(failure.bytesTransferred()).isEqualTo(cut);
                assertThat(failure.expectedSize()).isEqualTo(size);
                assertThat(failure.actualSize()).isEqualTo(cut);
            }
        }
    }

    @Test
    void fifo_openFileRefusesWithoutBlocking_copyPathStillStreamsIt() throws Exception {
        Path fifo = TestFiles.fifo(dir.resolve("fifo"));
        assertThatThrownBy(() -> OpenFile.open(fifo))
                .isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a regular file or directory");

        byte[] data = TestFiles.randomBytes(3000, SEED);
        // the writer closes (the FIFO's end of stream) only once the copy has started
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (OutputStream out = Files.newOutputStream(fifo)) {
                out.write(data);
                out.flush();
                started.await(30, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                throw new RuntimeException(e);
            }
        });
        RecordingListener listener = new RecordingListener();
        TransferOptions options = TransferOptions.builder()
                .listener(new TransferListener() {
                    @Override
                    public void onStart(String strategy, long expectedBytes) {
                        listener.onStart(strategy, expectedBytes);
                        started.countDown();
                    }
                })
                .build();
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            try (SocketChannel channel = receiver.connectChannel()) {
                assertThat(Transfers.copy(fifo, (WritableByteChannel) channel, options))
                        .isEqualTo(data.length);
            }
            assertThat(receiver.received().crc32c()).isEqualTo(TestFiles.crc32c(data));
        }
        assertThat(listener.strategy()).isEqualTo("buffered");
        writer.get(10, TimeUnit.SECONDS);
    }

    @Test
    void directory_failsAsTheJdkPathDoes() throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            assertThatThrownBy(() -> Transfers.copy(dir, (WritableByteChannel) channel))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("Is a directory");
            try (OpenFile opened = OpenFile.open(dir)) {
                assertThat(opened.attributes().isDirectory()).isTrue();
                assertThatThrownBy(() -> Transfers.copy(opened.channel(), 0, 1, channel))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("Is a directory");
            }
        }
    }

    @Test
    void openFile_failsAsFileChannelOpenDoes() throws Exception {
        assertThatThrownBy(() -> OpenFile.open(dir.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
        Path target = TestFiles.write(dir.resolve("target"), new byte[10]);
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertThatThrownBy(() -> OpenFile.open(link, LinkOption.NOFOLLOW_LINKS))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("NOFOLLOW_LINKS specified");
        try (OpenFile followed = OpenFile.open(link)) {
            assertThat(followed.attributes().size()).isEqualTo(10);
        }
    }

    @Test
    void forcedNative_interruptedWhileThePeerReadsNothing_endsInterrupted() throws Exception {
        Path file = TestFiles.write(dir.resolve("big"), TestFiles.randomBytes(8 << 20, SEED));
        CountDownLatch progressed = new CountDownLatch(1);
        RecordingListener listener = new RecordingListener(bytes -> progressed.countDown());
        // a blocking sendfile returns once it sent what it was asked: steps of 4 KiB, 10 a second
        TransferOptions copier = NATIVE.toBuilder()
                .bufferSize(4096)
                .rateLimit(4096 * 10)
                .listener(listener)
                .build();
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread sender = new Thread(() -> {
                try {
                    Transfers.copy(file, (WritableByteChannel) channel, copier);
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            sender.start();
            assertThat(progressed.await(30, TimeUnit.SECONDS)).as("progress").isTrue();
            sender.interrupt();
            Throwable failure = outcome.get(30, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferException.class);
            // the interrupt hit the socket's write (which closes it), or the engine saw it between steps
            assertThat(failure.getCause())
                    .isInstanceOfAny(ClosedByInterruptException.class, InterruptedIOException.class);
            assertThat(listener.strategy()).isEqualTo("native");
            sender.join();
        }
    }

    @Test
    void forcedNative_peerResets_failsWithTheSocketsError() throws Exception {
        int size = 8 << 20;
        Path file = TestFiles.write(dir.resolve("reset"), TestFiles.randomBytes(size, SEED));
        try (LoopbackReceiver receiver = LoopbackReceiver.resettingAfter(64 << 10, LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            TransferException failure = catchThrowableOfType(
                    TransferException.class, () -> Transfers.copy(file, (WritableByteChannel) channel, NATIVE));
            long read = receiver.readBeforeReset();
            assertThat(failure).isNotNull().isNotInstanceOf(TruncatedSourceException.class);
            assertThat(failure.getCause()).isInstanceOf(IOException.class);
            assertThat(failure.bytesTransferred()).isGreaterThanOrEqualTo(read).isLessThan(size);
        }
    }

    @Test
    void nativeExcludedOrAnotherForced_opensTheJdkWay() throws Exception {
        byte[] data = TestFiles.randomBytes(4096, SEED);
        Path file = TestFiles.write(dir.resolve("small"), data);
        for (TransferOptions options : new TransferOptions[] {
            TransferOptions.builder().exclude("native").build(),
            TransferOptions.builder().strategy("transferTo").build()
        }) {
            RecordingListener listener = new RecordingListener();
            try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
                try (SocketChannel channel = receiver.connectChannel()) {
                    Transfers.copy(
                            file,
                            (WritableByteChannel) channel,
                            options.toBuilder().listener(listener).build());
                }
                assertThat(receiver.received().crc32c()).isEqualTo(TestFiles.crc32c(data));
            }
            assertThat(listener.strategy()).as("%s", options).isNotEqualTo("native");
        }
        System.setProperty("zerocopy.exclude", "native");
        try (OpenFile opened = OpenFile.open(file)) {
            assertThat(opened.openedNatively())
                    .as("with zerocopy.exclude=native")
                    .isFalse();
        } finally {
            System.clearProperty("zerocopy.exclude");
        }
    }
}
