package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.testing.AdversarialChannels;
import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Source;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.ArgumentCaptor;

/**
 * What the engine owns: the per-call cap, zero progress and the stall timeout, truncated and growing
 * files, interrupts, the rate limit and how failures reach the caller. Uses the engine directly
 * with a {@link RecordingStrategy} where the point is what the engine asks for, and the public
 * facade with real strategies and {@link AdversarialChannels} where the point is what a caller sees.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EngineTest {

    /** Which copy verb a file source goes through: a slice (its position stays) or the channel (it advances). */
    enum Call {
        SLICE,
        CHANNEL
    }

    /** Data is random but reproducible; the fakes' short counts come from the same seed. */
    static final long SEED = Long.getLong("zerocopy.seed", 0x5EEDL);

    private static final Duration STALL = Duration.ofMillis(200);

    @TempDir
    Path dir;

    private final Random random = new Random(SEED);

    @BeforeAll
    static void printSeed() {
        System.out.println(
                EngineTest.class.getSimpleName() + ": seed " + SEED + " (replay with -Dzerocopy.seed=" + SEED + ")");
    }

    // ---------------------------------------------------------------- (a) the per-call cap

    static Stream<Platform> platforms() {
        return Stream.of(
                Platform.of(Platform.OperatingSystem.LINUX, 17, "6.1"),
                Platform.of(Platform.OperatingSystem.LINUX, 25, "6.8.0-45-generic"),
                Platform.of(Platform.OperatingSystem.WINDOWS, 17, "10.0"),
                Platform.of(Platform.OperatingSystem.MACOS, 21, "14.5"));
    }

    @ParameterizedTest
    @MethodSource("platforms")
    void run_sliceLargerThanCallCap_neverAsksForMoreThanCap(Platform platform) throws IOException {
        Path sparse = dir.resolve("sparse");
        long size = (3L << 30) + 11; // sparse: costs no disk
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(size);
        }
        long position = 7;
        long count = size - position - 3;
        // The second step comes up short, so the engine must ask again for what is left.
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> call == 1 ? max / 3 : max);
        long moved;
        try (FileChannel file = FileChannel.open(sparse, StandardOpenOption.READ)) {
            TransferFacts request = Selections.on(
                    platform,
                    TransferRequest.builder()
                            .source(file, ChannelKind.FILE)
                            .slice(position, count)
                            .target(Channels.newChannel(OutputStream.nullOutputStream()), ChannelKind.OTHER)
                            .build());
            moved = run(request, strategy, TransferOptions.defaults());
        }

        long cap = platform.maxBytesPerCall();
        // The per-OS caps from the design notes: MAX_RW_COUNT on Linux, the JDK's clamps elsewhere.
        long documentedCap = platform.os() == Platform.OperatingSystem.LINUX
                ? 0x7ffff000L
                : platform.os() == Platform.OperatingSystem.WINDOWS ? Integer.MAX_VALUE - 1L : Integer.MAX_VALUE;
        assertThat(cap).isEqualTo(documentedCap);
        assertThat(moved).isEqualTo(count);
        assertThat(strategy.reportedTotal()).isEqualTo(count);
        assertThat(strategy.asked)
                .hasSizeGreaterThan(2)
                .allSatisfy(ask -> assertThat(ask).isBetween(1L, cap));
        long sum = 0;
        for (int i = 0; i < strategy.asked.size(); i++) {
            assertThat(strategy.transferredArguments.get(i))
                    .as("transferred at step %d", i)
                    .isEqualTo(sum);
            assertThat(strategy.asked.get(i))
                    .as("asked at step %d", i)
                    .isEqualTo(Math.min(Math.min(TransferFacts.MAX_STEP_BYTES, cap), count - sum));
            sum += strategy.reported.get(i);
        }
        assertThat(strategy.opens).isEqualTo(1);
        assertThat(strategy.closes).isEqualTo(1);
    }

    // ---------------------------------------------------------------- (b) zero progress and the stall timeout

    @ParameterizedTest
    @EnumSource(TransferStep.Side.class)
    void run_stepMovesNothingForever_timesOutWithoutSpinning(TransferStep.Side side) {
        RecordingStrategy strategy =
                new RecordingStrategy((call, done, max) -> call < 3 ? Math.min(max, 1000) : 0, side);
        TransferListener listener = ListenerCalls.mockListener();
        TransferRequest request = tenThousandBytesInShortCalls();
        TransferOptions options =
                TransferOptions.builder().stallTimeout(STALL).listener(listener).build();

        TransferTimeoutException e =
                assertThrows(TransferTimeoutException.class, () -> run(request, strategy, options));

        assertThat(e.bytesTransferred()).isEqualTo(3000);
        assertThat(e.stallTimeout()).isEqualTo(STALL);
        // The back-off grows to 10 ms, so 200 ms of stalling takes a few dozen steps; a spinning
        // loop would make hundreds of thousands.
        assertThat(strategy.asked.size()).as("steps while stalled").isBetween(4, 1_000);
        assertThat(strategy.closes).isEqualTo(1);
        ListenerCalls.verifyFailed(listener, RecordingStrategy.NAME, -1, e);
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_targetStopsAccepting_timesOut(String strategy) throws IOException {
        byte[] data = randomBytes(64 * 1024);
        Path source = write("source", data);
        Target target = Target.limited(Behaviour.STALL_AFTER_N, 20_000, random);
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .stallTimeout(STALL)
                .bufferSize(4096)
                .mappedWindow(16 * 1024)
                .build();

        TransferTimeoutException e;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            e = assertThrows(TransferTimeoutException.class, () -> Transfers.copy(in, 0, data.length, target, copier));
        }

        assertThat(e.bytesTransferred()).isEqualTo(20_000);
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), Arrays.copyOf(data, 20_000));
        assertThat(target.calls()).as("writes while stalled").isLessThan(2_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferFromStrategy.NAME, BufferedStrategy.NAME})
    void copy_sourceStopsDelivering_timesOut(String strategy) throws IOException {
        byte[] data = randomBytes(64 * 1024);
        Source source = Source.limited(data, Behaviour.STALL_AFTER_N, 20_000, random);
        Path targetPath = dir.resolve("target");
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .stallTimeout(STALL)
                .bufferSize(4096)
                .build();

        TransferTimeoutException e;
        try (FileChannel out = FileChannel.open(targetPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            e = assertThrows(TransferTimeoutException.class, () -> Transfers.copy(source, out, copier));
            assertThat(out.position()).isEqualTo(20_000);
        }

        assertThat(e.bytesTransferred()).isEqualTo(20_000);
        ByteArrays.assertSameBytes("target file", Files.readAllBytes(targetPath), Arrays.copyOf(data, 20_000));
        assertThat(source.calls()).as("reads while stalled").isLessThan(4_000);
    }

    // ---------------------------------------------------------------- (c) files that shrink or grow

    private static final int TRUNCATION_FILE_SIZE = 256 * 1024 + 123;
    private static final int SLICE_POSITION = 1000;
    private static final int SLICE_END = TRUNCATION_FILE_SIZE - 500;
    /** Bytes the target accepts before the file is cut. */
    private static final int CUT_AFTER = 40_000;

    static Stream<Arguments> truncations() {
        // Page-aligned sizes (x86 and arm64 pages divide 32 KiB): a mapping then faults exactly at
        // the new end, instead of reading the zero-filled tail of the last page.
        List<Arguments> cases = new ArrayList<>();
        for (int truncateTo : new int[] {0, 32 * 1024, 96 * 1024}) {
            cases.add(Arguments.of(TransferToStrategy.NAME, 16 * 1024, truncateTo));
            cases.add(Arguments.of(BufferedStrategy.NAME, 16 * 1024, truncateTo));
            // One window for the whole file: the cut lands inside a live mapping.
            cases.add(Arguments.of(MappedStrategy.NAME, 1024 * 1024, truncateTo));
            // Small windows: the cut can also land on a window not yet mapped.
            cases.add(Arguments.of(MappedStrategy.NAME, 16 * 1024, truncateTo));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} window/buffer={1} truncateTo={2}")
    @MethodSource("truncations")
    void copy_truncatedFile_failsWithTruncatedSource(String strategy, int bufferOrWindow, int truncateTo)
            throws IOException {
        byte[] data = randomBytes(TRUNCATION_FILE_SIZE);
        Path source = write("source", data);
        long[] sentAtCut = {-1};
        Target target = Target.of(Behaviour.RANDOM_SHORT, random).hook(total -> {
            if (sentAtCut[0] < 0 && total >= CUT_AFTER) {
                sentAtCut[0] = total;
                truncate(source, truncateTo);
            }
        });
        TransferListener listener = ListenerCalls.mockListener();
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .listener(listener)
                .bufferSize(bufferOrWindow)
                .mappedWindow(bufferOrWindow)
                .build();

        TruncatedSourceException e;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            e = assertThrows(
                    TruncatedSourceException.class,
                    () -> Transfers.copy(in, SLICE_POSITION, SLICE_END - SLICE_POSITION, target, copier));
            assertThat(in.isOpen()).isTrue();
        }

        assertThat(e.expectedSize()).isEqualTo(SLICE_END);
        assertThat(e.actualSize()).isEqualTo(truncateTo);
        byte[] model = Arrays.copyOfRange(data, SLICE_POSITION, SLICE_END);
        if (strategy.equals(MappedStrategy.NAME)) {
            // This target copies out of the mapping in Java. HotSpot (JDK 17) reports a fault there
            // late, at a point of its choosing: the target may have taken zeros for lost pages, the
            // write that finally reports it may already have handed bytes over, and the engine may
            // have counted a step it had not yet reported. Only what was sent before the cut is certain.
            ListenerCalls.verifyFailedAfterProgress(listener, strategy, SLICE_END - SLICE_POSITION, e);
            assertThat(e.bytesTransferred()).isBetween(sentAtCut[0], target.size());
            ByteArrays.assertSameBytes(
                    "bytes sent before the cut",
                    Arrays.copyOf(target.bytes(), (int) sentAtCut[0]),
                    Arrays.copyOf(model, (int) sentAtCut[0]));
        } else {
            ListenerCalls.verifyFailed(listener, strategy, SLICE_END - SLICE_POSITION, e);
            assertThat(e.bytesTransferred()).isEqualTo(target.size()).isGreaterThanOrEqualTo(sentAtCut[0]);
            ByteArrays.assertSameBytes(
                    "bytes at the target", target.bytes(), Arrays.copyOf(model, (int) target.size()));
            if (truncateTo > SLICE_POSITION + sentAtCut[0]) {
                // Reading at explicit positions, these strategies send everything up to the new end.
                assertThat(e.bytesTransferred()).isEqualTo(truncateTo - SLICE_POSITION);
            }
        }
    }

    static Stream<Arguments> fileToFileTruncations() {
        List<Arguments> cases = new ArrayList<>();
        // transferFrom declines file sources (it would read them at their shared position)
        for (String strategy : List.of(TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME)) {
            for (int truncateTo : new int[] {0, 32 * 1024, 160 * 1024}) {
                cases.add(Arguments.of(strategy, truncateTo));
            }
        }
        return cases.stream();
    }

    /**
     * File to file, where the kernel copies and a fault on a lost page comes back at once as an
     * error of the system call: the count is exact for every strategy, mmap included.
     */
    @ParameterizedTest(name = "{0} truncateTo={1}")
    @MethodSource("fileToFileTruncations")
    void copy_truncatedFileToFile_failsWithTruncatedSource(String strategy, int truncateTo) throws IOException {
        byte[] data = randomBytes(TRUNCATION_FILE_SIZE);
        Path source = write("source", data);
        Path targetPath = dir.resolve("target");
        // A whole file may move in one kernel call; a rate limit splits it into steps of a tenth of a
        // second's worth (about 100 KiB here), and the listener cuts the file after the first.
        TransferListener listener = ListenerCalls.onProgress(bytes -> {
            if (bytes < 128 * 1024) {
                truncate(source, truncateTo);
            }
        });
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .rateLimit(1024 * 1024)
                .listener(listener)
                .build();

        TruncatedSourceException e;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out =
                        FileChannel.open(targetPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            in.position(SLICE_POSITION);
            e = assertThrows(
                    TruncatedSourceException.class,
                    () -> Transfers.copy(in, SLICE_POSITION, SLICE_END - SLICE_POSITION, out, copier));
            assertThat(in.position()).as("source position").isEqualTo(SLICE_POSITION);
            assertThat(out.position()).as("target position").isEqualTo(e.bytesTransferred());
        }

        assertThat(e.expectedSize()).isEqualTo(SLICE_END);
        assertThat(e.actualSize()).isEqualTo(truncateTo);
        ListenerCalls.verifyFailed(listener, strategy, SLICE_END - SLICE_POSITION, e);
        long firstStep = ListenerCalls.progress(listener).get(0);
        byte[] written = Files.readAllBytes(targetPath);
        assertThat((long) written.length).isEqualTo(e.bytesTransferred());
        ByteArrays.assertSameBytes(
                "target file", written, Arrays.copyOfRange(data, SLICE_POSITION, SLICE_POSITION + written.length));
        assertThat(e.bytesTransferred()).isEqualTo(Math.max(firstStep, truncateTo - SLICE_POSITION));
    }

    /**
     * A window is mapped, the file is cut to nothing under it, and the target copies out of the
     * mapped buffer in Java (one byte at a time or in bulk): the JDK raises {@code InternalError}
     * for the fault, which must reach the caller as a {@link TruncatedSourceException}.
     */
    @ParameterizedTest
    @EnumSource(
            value = Behaviour.class,
            names = {"ONE_BYTE", "RANDOM_SHORT"})
    void copy_fileCutUnderMappedWindow_failsWithTruncatedSourceNotInternalError(Behaviour behaviour)
            throws IOException {
        byte[] data = randomBytes(64 * 1024);
        Path source = write("source", data);
        long[] sentAtCut = {-1};
        Target target = Target.of(behaviour, random).hook(total -> {
            if (sentAtCut[0] < 0 && total >= 4096) {
                sentAtCut[0] = total;
                truncate(source, 0);
            }
        });
        TransferOptions copier = TransferOptions.builder()
                .strategy(MappedStrategy.NAME)
                .mappedWindow(1024 * 1024)
                .build();

        TruncatedSourceException e;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            e = assertThrows(TruncatedSourceException.class, () -> Transfers.copy(in, 0, data.length, target, copier));
        }

        assertThat(e.actualSize()).isZero();
        assertThat(e.expectedSize()).isEqualTo(data.length);
        assertThat(e.bytesTransferred()).isBetween(sentAtCut[0], target.size());
        ByteArrays.assertSameBytes(
                "bytes sent before the cut",
                Arrays.copyOf(target.bytes(), (int) sentAtCut[0]),
                Arrays.copyOf(data, (int) sentAtCut[0]));
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_fileGrowsDuringTransfer_sendsStartingSize(String strategy) throws IOException {
        byte[] data = randomBytes(100 * 1024 + 7);
        Path source = write("source", data);
        boolean[] grown = {false};
        Target target = Target.of(Behaviour.RANDOM_SHORT, random).hook(total -> {
            if (!grown[0] && total >= 30_000) {
                grown[0] = true;
                Files.write(source, randomBytes(50 * 1024), StandardOpenOption.APPEND);
            }
        });
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .bufferSize(8192)
                .mappedWindow(16 * 1024)
                .build();

        long moved = Transfers.copy(source, target, copier);

        assertThat(grown[0]).isTrue();
        assertThat(Files.size(source)).isGreaterThan(data.length);
        assertThat(moved).isEqualTo(data.length);
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), data);
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_fileGrowsDuringFileToFileTransfer_sendsStartingSize(String strategy) throws IOException {
        byte[] data = randomBytes(256 * 1024 + 7);
        Path source = write("source", data);
        Path targetPath = dir.resolve("target");
        // A rate limit splits the copy into steps; the listener appends after the first.
        TransferListener listener = ListenerCalls.onProgress(bytes -> {
            if (bytes < 128 * 1024) {
                Files.write(source, randomBytes(50 * 1024), StandardOpenOption.APPEND);
            }
        });
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .rateLimit(1024 * 1024)
                .listener(listener)
                .build();

        long moved = Transfers.copy(source, targetPath, copier);

        assertThat(Files.size(source)).isGreaterThan(data.length);
        assertThat(moved).isEqualTo(data.length);
        ByteArrays.assertSameBytes("target file", Files.readAllBytes(targetPath), data);
        ListenerCalls.verifyCompleted(listener, strategy, data.length, data.length);
    }

    // ---------------------------------------------------------------- (d) interrupts

    @ParameterizedTest
    @ValueSource(strings = {TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_interruptedInTargetWrite_failsWithInterruptCause(String strategy) throws IOException {
        byte[] data = randomBytes(128 * 1024);
        Path source = write("source", data);
        boolean[] interrupted = {false};
        Target target = Target.of(Behaviour.RANDOM_SHORT, random).hook(total -> {
            if (!interrupted[0] && total >= 20_000) {
                interrupted[0] = true;
                Thread.currentThread().interrupt();
            }
        });
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .bufferSize(8192)
                .mappedWindow(16 * 1024)
                .build();

        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            TransferException e =
                    assertThrows(TransferException.class, () -> Transfers.copy(in, 0, data.length, target, copier));
            // Clear the status before touching a channel again: a FileChannel closes itself otherwise.
            assertThat(Thread.interrupted()).as("interrupt status after copy").isTrue();

            assertInterruptCause(e, in, target);
            assertThat(e.bytesTransferred()).isEqualTo(target.size()).isGreaterThanOrEqualTo(20_000);
            ByteArrays.assertSameBytes("bytes at the target", target.bytes(), Arrays.copyOf(data, (int) target.size()));
        } finally {
            Thread.interrupted();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferFromStrategy.NAME, BufferedStrategy.NAME})
    void copy_interruptedInSourceRead_failsWithInterruptCause(String strategy) throws IOException {
        byte[] data = randomBytes(128 * 1024);
        boolean[] interrupted = {false};
        Source source = Source.of(data, Behaviour.RANDOM_SHORT, random).hook(total -> {
            if (!interrupted[0] && total >= 20_000) {
                interrupted[0] = true;
                Thread.currentThread().interrupt();
            }
        });
        Path targetPath = dir.resolve("target");
        TransferOptions copier =
                TransferOptions.builder().strategy(strategy).bufferSize(8192).build();

        try (FileChannel out = FileChannel.open(targetPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            TransferException e = assertThrows(TransferException.class, () -> Transfers.copy(source, out, copier));
            assertThat(Thread.interrupted()).as("interrupt status after copy").isTrue();

            assertInterruptCause(e, source, out);
            byte[] written = Files.readAllBytes(targetPath);
            assertThat((long) written.length).isEqualTo(e.bytesTransferred());
            ByteArrays.assertSameBytes("target file", written, Arrays.copyOf(data, written.length));
        } finally {
            Thread.interrupted();
        }
    }

    static Stream<Arguments> strategiesAndCalls() {
        List<Arguments> cases = new ArrayList<>();
        for (String strategy : List.of(TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME)) {
            cases.add(Arguments.of(strategy, Call.SLICE));
            cases.add(Arguments.of(strategy, Call.CHANNEL));
        }
        return cases.stream();
    }

    /**
     * An interrupt between steps (from the listener) surfaces as {@code InterruptedIOException},
     * leaves both file channels open, and leaves their positions where the copy method promises.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("strategiesAndCalls")
    void copy_interruptedBetweenSteps_failsWithInterruptedIoAndChannelsOpen(String strategy, Call call)
            throws IOException {
        byte[] data = randomBytes(2 * 1024 * 1024 + 1);
        Path source = write("source", data);
        Path targetPath = dir.resolve("target");
        TransferListener listener =
                ListenerCalls.onProgress(bytes -> Thread.currentThread().interrupt());
        // The rate limit makes steps of 1 MiB, so the first step cannot finish the transfer.
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .rateLimit(10L * 1024 * 1024)
                .listener(listener)
                .build();

        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out =
                        FileChannel.open(targetPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            TransferException e = assertThrows(TransferException.class, () -> {
                if (call == Call.SLICE) {
                    Transfers.copy(in, 0, data.length, out, copier);
                } else {
                    Transfers.copy((java.nio.channels.ReadableByteChannel) in, out, copier);
                }
            });
            boolean stillInterrupted = Thread.interrupted();

            assertThat(stillInterrupted).as("interrupt status after copy").isTrue();
            assertThat(e).hasCauseInstanceOf(InterruptedIOException.class);
            assertThat(in.isOpen()).as("source open").isTrue();
            assertThat(out.isOpen()).as("target open").isTrue();
            assertThat(e.bytesTransferred())
                    .isEqualTo(ListenerCalls.progress(listener)
                            .get(ListenerCalls.progress(listener).size() - 1));
            assertThat(out.position()).as("target position").isEqualTo(e.bytesTransferred());
            assertThat(in.position()).as("source position").isEqualTo(call == Call.SLICE ? 0 : e.bytesTransferred());
            byte[] written = Files.readAllBytes(targetPath);
            assertThat((long) written.length).isEqualTo(e.bytesTransferred()).isLessThan(data.length);
            ByteArrays.assertSameBytes("target file", written, Arrays.copyOf(data, written.length));
            ListenerCalls.verifyFailed(listener, strategy, data.length, e);
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * The cause is one of the two the {@link TransferOptions} documents. A {@code ClosedByInterruptException}
     * means a JDK channel noticed and closed itself; an {@code InterruptedIOException} promises the
     * channels are still open.
     */
    private static void assertInterruptCause(
            TransferException e, java.nio.channels.Channel source, java.nio.channels.Channel target) {
        assertThat(e.getCause()).isInstanceOfAny(InterruptedIOException.class, ClosedByInterruptException.class);
        if (e.getCause() instanceof InterruptedIOException) {
            assertThat(source.isOpen())
                    .as("source open after InterruptedIOException")
                    .isTrue();
            assertThat(target.isOpen())
                    .as("target open after InterruptedIOException")
                    .isTrue();
        } else {
            assertThat(source.isOpen() && target.isOpen())
                    .as("a channel closed after ClosedByInterruptException")
                    .isFalse();
        }
    }

    // ---------------------------------------------------------------- (e) rate limit

    @ParameterizedTest(name = "rateLimit={0} count={1}")
    @MethodSource("rates")
    void run_rateLimit_asksAtMostATenthOfASecondsWorth(long rate, long count) throws IOException {
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> max);
        Path file = write("source", new byte[(int) count]);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            TransferRequest request = TransferRequest.builder()
                    .source(in, ChannelKind.FILE)
                    .slice(0, count)
                    .target(Target.of(Behaviour.RANDOM_SHORT, random), ChannelKind.OTHER)
                    .build();
            long moved = run(
                    request, strategy, TransferOptions.builder().rateLimit(rate).build());

            assertThat(moved).isEqualTo(count);
        }
        long step = Math.max(1, rate / 10);
        assertThat(strategy.asked)
                .hasSizeGreaterThan(1)
                .allSatisfy(ask -> assertThat(ask).isBetween(1L, step));
        assertThat(strategy.reportedTotal()).isEqualTo(count);
    }

    static Stream<Arguments> rates() {
        return Stream.of(Arguments.of(5L, 2L), Arguments.of(100_000L, 25_000L));
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_rateLimitToFake_writesAtMostATenthOfASecondsWorth(String strategy) throws IOException {
        long rate = 40_000; // steps of 4000 bytes: below the JDK's own 8 KiB chunks, so the limit shows
        byte[] data = randomBytes(10_000);
        Path source = write("source", data);
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        TransferOptions copier =
                TransferOptions.builder().strategy(strategy).rateLimit(rate).build();

        long moved = Transfers.copy(source, target, copier);

        assertThat(moved).isEqualTo(data.length);
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), data);
        assertThat(target.largestOffer()).isBetween(1, (int) (rate / 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferFromStrategy.NAME, BufferedStrategy.NAME})
    void copy_rateLimitFromFake_readsAtMostATenthOfASecondsWorth(String strategy) throws IOException {
        long rate = 40_000;
        byte[] data = randomBytes(10_000);
        Source source = Source.of(data, Behaviour.RANDOM_SHORT, random);
        Path targetPath = dir.resolve("target");
        TransferOptions copier =
                TransferOptions.builder().strategy(strategy).rateLimit(rate).build();

        long moved;
        try (FileChannel out = FileChannel.open(targetPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            moved = Transfers.copy(source, out, copier);
        }

        assertThat(moved).isEqualTo(data.length);
        ByteArrays.assertSameBytes("target file", Files.readAllBytes(targetPath), data);
        assertThat(source.largestOffer()).isBetween(1, (int) (rate / 10));
    }

    // ---------------------------------------------------------------- (f) how failures reach the caller

    @Test
    void run_stepThrowsIoException_wrapsWithCountAndCause() {
        IOException boom = new IOException("boom");
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> {
            if (call == 2) {
                throw boom;
            }
            return Math.min(max, 500);
        });
        TransferListener listener = ListenerCalls.mockListener();
        TransferRequest request = TransferRequest.builder()
                .source(Source.of(new byte[10], Behaviour.RANDOM_SHORT, random), ChannelKind.OTHER)
                .target(Target.of(Behaviour.RANDOM_SHORT, random), ChannelKind.OTHER)
                .build();

        TransferException e = assertThrows(
                TransferException.class,
                () -> run(
                        request,
                        strategy,
                        TransferOptions.builder().listener(listener).build()));

        assertThat(e.bytesTransferred()).isEqualTo(1000);
        assertThat(e.getCause()).isSameAs(boom);
        assertThat(strategy.closes).isEqualTo(1);
        ListenerCalls.verifyFailed(listener, RecordingStrategy.NAME, -1, e);
    }

    @Test
    void run_stepThrowsRuntimeException_becomesTransferExceptionWithCount() {
        IllegalStateException bug = new IllegalStateException("bug in a strategy");
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> {
            if (call == 3) {
                throw bug;
            }
            return Math.min(max, 500);
        });
        TransferRequest request = tenThousandBytesInShortCalls();
        TransferListener listener = ListenerCalls.mockListener();

        TransferException e = assertThrows(
                TransferException.class,
                () -> run(
                        request,
                        strategy,
                        TransferOptions.builder().listener(listener).build()));

        assertThat(e.getCause()).isSameAs(bug);
        assertThat(e.bytesTransferred()).isEqualTo(strategy.reportedTotal());
        assertThat(e.getMessage()).contains("IllegalStateException", "bug in a strategy");
        assertThat(strategy.closes).isEqualTo(1);
        ListenerCalls.verifyFailed(listener, RecordingStrategy.NAME, -1, e);
    }

    @Test
    void run_stepThrowsError_listenerHearsFirstThenTheErrorPropagates() {
        AssertionError error = new AssertionError("an Error from a channel");
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> {
            if (call == 2) {
                throw error;
            }
            return Math.min(max, 500);
        });
        TransferRequest request = tenThousandBytesInShortCalls();
        TransferListener listener = ListenerCalls.mockListener();

        AssertionError thrown = assertThrows(
                AssertionError.class,
                () -> run(
                        request,
                        strategy,
                        TransferOptions.builder().listener(listener).build()));

        assertThat(thrown).isSameAs(error);
        assertThat(strategy.closes).isEqualTo(1);
        ArgumentCaptor<TransferException> told = ArgumentCaptor.forClass(TransferException.class);
        verify(listener).onFailure(told.capture()); // onFailure heard of it
        assertThat(told.getValue().getCause()).isSameAs(error);
        assertThat(told.getValue().bytesTransferred()).isEqualTo(strategy.reportedTotal());
    }

    @Test
    void run_stepCloseThrowsErrorAfterTheLastStep_listenerHearsFailureThenTheErrorPropagates() {
        AssertionError error = new AssertionError("an Error from a step's close");
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> call < 3 ? Math.min(max, 500) : -1);
        strategy.closing = () -> {
            throw error;
        };
        TransferListener listener = ListenerCalls.mockListener();

        AssertionError thrown = assertThrows(
                AssertionError.class,
                () -> run(
                        tenThousandBytesInShortCalls(),
                        strategy,
                        TransferOptions.builder().listener(listener).build()));

        assertThat(thrown).isSameAs(error);
        assertThat(strategy.closes).isEqualTo(1);
        ArgumentCaptor<TransferException> told = ArgumentCaptor.forClass(TransferException.class);
        verify(listener).onFailure(told.capture());
        verify(listener, never()).onComplete(any());
        assertThat(told.getValue().getCause()).isSameAs(error);
        assertThat(told.getValue().bytesTransferred()).isEqualTo(1500);
    }

    @Test
    void run_stepReturnsANegativeOtherThanEndOfStream_failsRatherThanEndingShort() {
        RecordingStrategy strategy = new RecordingStrategy((call, done, max) -> call < 1 ? Math.min(max, 500) : -5);
        TransferListener listener = ListenerCalls.mockListener();

        TransferException e = assertThrows(
                TransferException.class,
                () -> run(
                        tenThousandBytesInShortCalls(),
                        strategy,
                        TransferOptions.builder().listener(listener).build()));

        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessageContaining("-5");
        assertThat(e.bytesTransferred()).isEqualTo(500);
        assertThat(strategy.closes).isEqualTo(1);
        verify(listener, never()).onComplete(any());
    }

    @ParameterizedTest
    @ValueSource(strings = {TransferToStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_targetFails_reachesCallerWithCountAndCause(String strategy) throws IOException {
        byte[] data = randomBytes(50_000);
        Path source = write("source", data);
        Target target = Target.limited(Behaviour.FAIL_AFTER_N, 12_345, random);
        TransferOptions copier = TransferOptions.builder()
                .strategy(strategy)
                .bufferSize(4096)
                .mappedWindow(8192)
                .build();

        TransferException e;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            e = assertThrows(TransferException.class, () -> Transfers.copy(in, 0, data.length, target, copier));
        }

        assertThat(e).isExactlyInstanceOf(TransferException.class);
        assertThat(e.getCause()).isSameAs(target.lastFailure());
        assertThat(e.bytesTransferred()).isEqualTo(12_345);
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), Arrays.copyOf(data, 12_345));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {TransferToStrategy.NAME, TransferFromStrategy.NAME, MappedStrategy.NAME, BufferedStrategy.NAME})
    void copy_targetOpenedReadOnly_throwsNonWritableChannelExceptionUnwrapped(String strategy) throws IOException {
        byte[] data = randomBytes(10_000);
        Path source = write("source", data);
        Path targetPath = write("target", new byte[0]);
        TransferOptions copier = TransferOptions.builder().strategy(strategy).build();

        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(targetPath, StandardOpenOption.READ)) {
            assertThrows(NonWritableChannelException.class, () -> Transfers.copy(in, 0, data.length, out, copier));
            assertThat(in.position()).isZero();
        }
        assertThat(Files.size(targetPath)).isZero();
    }

    // ---------------------------------------------------------------- helpers

    private static long run(TransferRequest request, RecordingStrategy strategy, TransferOptions options)
            throws IOException {
        return run(TestFacts.of(request, options, Platform.current(), false), strategy, options);
    }

    private static long run(TransferFacts facts, RecordingStrategy strategy, TransferOptions options)
            throws IOException {
        RealTransfer transfer =
                RealTransfer.start(facts, TestFacts.choice(strategy, "scripted for a test"), options, null, null);
        return new Engine(transfer, options).run();
    }

    /** 10,000 bytes from a source to a target that both take random short calls, neither of them a JDK channel. */
    private TransferRequest tenThousandBytesInShortCalls() {
        return TransferRequest.builder()
                .source(Source.of(new byte[10_000], Behaviour.RANDOM_SHORT, random), ChannelKind.OTHER)
                .target(Target.of(Behaviour.RANDOM_SHORT, random), ChannelKind.OTHER)
                .build();
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private Path write(String name, byte[] data) throws IOException {
        return Files.write(dir.resolve(name), data);
    }

    /** Cuts the file through a second handle, as another process would. */
    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
            other.truncate(size);
        }
    }
}
