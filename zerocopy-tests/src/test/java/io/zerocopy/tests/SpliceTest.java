package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The splice strategy through the public API, forced by name, over real loopback sockets: bytes
 * arrive exactly (CRC32C), file targets are written at and advance their position, a peer that
 * resets or stops reading ends the transfer with its count, interrupts wake a splice blocked in the
 * kernel, and no pipe or duplicated descriptor outlives a transfer. Runs only in the surefire
 * execution that passes the JVM flags (see the module's pom); skipped before Java 22.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpliceTest {
    private static final long SEED = Seeds.announce(SpliceTest.class);
    private static final long[] SIZES = {0, 1, 65_537, (1 << 20) + 3, 9L << 20};

    @TempDir
    Path dir;

    @BeforeAll
    static void needsJava22() {
        int feature = Runtime.version().feature();
        if (feature < 22) {
            System.out.println("SpliceTest skipped: splice needs Java 22 or later, this is Java " + feature);
        }
        assumeTrue(feature >= 22, "splice needs Java 22 or later; this is Java " + feature);
        assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments())
                .as("JVM flags of this execution (see the module's pom)")
                .contains("--enable-native-access=ALL-UNNAMED");
    }

    private static TransferOptions splice(RecordingListener listener, Duration stallTimeout) {
        return TransferOptions.builder()
                .strategy("splice")
                .listener(listener)
                .stallTimeout(stallTimeout)
                .build();
    }

    static Stream<Arguments> socketCases() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean sourceBlocking : new boolean[] {true, false}) {
            for (boolean targetBlocking : new boolean[] {true, false}) {
                for (long size : SIZES) {
                    cases.add(Arguments.of(sourceBlocking, targetBlocking, size, SEED));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{2} bytes, source blocking {0}, target blocking {1} (seed {3})")
    @MethodSource("socketCases")
    void copy_socketToSocket(boolean sourceBlocking, boolean targetBlocking, long size, long seed) throws Exception {
        byte[] data = TestFiles.randomBytes((int) size, Seeds.derive(seed, size));
        RecordingListener listener = new RecordingListener();
        long copied;
        try (LoopbackSender sender = LoopbackSender.toChannel(data);
                LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
            SocketChannel source = sender.channel();
            source.configureBlocking(sourceBlocking);
            try (SocketChannel target = receiver.connectChannel()) {
                target.configureBlocking(targetBlocking);

                copied = Transfers.copy((ReadableByteChannel) source, target, splice(listener, Duration.ofSeconds(30)));

                assertThat(target.isBlocking()).as("target mode unchanged").isEqualTo(targetBlocking);
                assertThat(target.isRegistered()).as("target left registered").isFalse();
                assertThat(source.isBlocking()).as("source mode unchanged").isEqualTo(sourceBlocking);
                assertThat(source.isOpen() && target.isOpen())
                        .as("both ends still open")
                        .isTrue();
                target.shutdownOutput();
                sender.awaitSent();
                LoopbackReceiver.Received received = receiver.received();
                assertThat(received.bytes()).as("bytes received").isEqualTo(size);
                assertThat(received.crc32c()).as("CRC32C of what arrived").isEqualTo(TestFiles.crc32c(data));
            }
        }
        assertThat(copied).as("returned count").isEqualTo(size);
        assertThat(listener.strategy()).isEqualTo("splice");
    }

    @ParameterizedTest(name = "{1} bytes from a blocking={0} socket into a file (seed {2})")
    @MethodSource("fileCases")
    void copy_socketToFile(boolean blocking, long size, long seed) throws Exception {
        byte[] data = TestFiles.randomBytes((int) size, Seeds.derive(seed, size));
        byte[] existing = TestFiles.randomBytes(3000, ~seed);
        int start = 1234;
        Path file = TestFiles.write(dir.resolve("target"), existing);
        RecordingListener listener = new RecordingListener();
        long copied;
        try (LoopbackSender sender = LoopbackSender.toChannel(data);
                FileChannel target = FileChannel.open(file, StandardOpenOption.WRITE)) {
            sender.channel().configureBlocking(blocking);
            target.position(start);

            copied = Transfers.copy(
                    (ReadableByteChannel) sender.channel(), target, splice(listener, Duration.ofSeconds(30)));

            sender.awaitSent();
            assertThat(target.position()).as("target position").isEqualTo(start + size);
        }
        assertThat(copied).isEqualTo(size);
        byte[] expected = Arrays.copyOf(existing, Math.max(existing.length, start + data.length));
        System.arraycopy(data, 0, expected, start, data.length);
        assertThat(Arrays.mismatch(Files.readAllBytes(file), expected))
                .as("first differing byte")
                .isEqualTo(-1);
        assertThat(listener.strategy()).isEqualTo("splice");
    }

    static Stream<Arguments> fileCases() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean blocking : new boolean[] {true, false}) {
            for (long size : SIZES) {
                cases.add(Arguments.of(blocking, size, SEED));
            }
        }
        return cases.stream();
    }

    /**
     * Even with the flags, splice is never chosen by itself (it won on CPU but not on throughput
     * everywhere, docs/splice.md): socket to socket and socket into a file stay buffered.
     */
    @Test
    void automatic_choice() throws Exception {
        RecordingListener listener = new RecordingListener();
        TransferOptions auto = TransferOptions.builder().listener(listener).build();
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            source.send(new byte[70_000], true);
            assertThat(Transfers.copy((ReadableByteChannel) source.near(), target.near(), auto))
                    .isEqualTo(70_000);
            assertThat(listener.strategy()).isEqualTo("buffered");
        }
        try (Connection source = Connection.open();
                FileChannel target =
                        FileChannel.open(dir.resolve("auto"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            source.send(new byte[70_000], true);
            assertThat(Transfers.copy((ReadableByteChannel) source.near(), target, auto))
                    .isEqualTo(70_000);
            assertThat(listener.strategy()).isEqualTo("buffered");
        }
    }

    @Test
    void copy_appendingFileDeclined() throws Exception {
        try (LoopbackSender sender = LoopbackSender.toChannel(new byte[10]);
                FileChannel target = FileChannel.open(
                        dir.resolve("log"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND)) {
            assertThatThrownBy(() -> Transfers.copy(
                            (ReadableByteChannel) sender.channel(),
                            target,
                            splice(new RecordingListener(), Duration.ofSeconds(5))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("open for appending");
        }
    }

    @ParameterizedTest(name = "target blocking {0}")
    @ValueSource(booleans = {true, false})
    void copy_targetPeerResets(boolean targetBlocking) throws Exception {
        byte[] data = TestFiles.randomBytes(9 << 20, SEED);
        try (LoopbackSender sender = LoopbackSender.toChannel(data);
                LoopbackReceiver receiver = LoopbackReceiver.resettingAfter(100_000, LoopbackReceiver.SMALL_BUFFER);
                SocketChannel target = receiver.connectChannel()) {
            target.configureBlocking(targetBlocking);

            assertThatThrownBy(() -> Transfers.copy(
                            (ReadableByteChannel) sender.channel(),
                            target,
                            splice(new RecordingListener(), Duration.ofSeconds(30))))
                    .isInstanceOfSatisfying(
                            TransferException.class,
                            e -> assertThat(e.bytesTransferred())
                                    .as("count at the reset")
                                    .isBetween(100_000L, (long) data.length - 1))
                    .hasRootCauseInstanceOf(IOException.class);
        }
    }

    /** A source whose peer resets fails the relay with what the JDK's own read throws then (a {@code SocketException}). */
    @Test
    void copy_sourcePeerResets_failsAsTheJdksReadFails() throws Exception {
        Throwable jdks;
        try (Connection reset = Connection.open()) {
            reset.far().setOption(StandardSocketOptions.SO_LINGER, 0);
            reset.far().close();
            jdks = catchThrowable(() -> reset.near().read(ByteBuffer.allocate(16)));
        }
        assertThat(jdks).as("the JDK's read").isNotNull();
        try (Connection source = Connection.open();
                LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel target = receiver.connectChannel()) {
            source.far().setOption(StandardSocketOptions.SO_LINGER, 0);
            source.far().close();

            Throwable failure = catchThrowable(() -> Transfers.copy(
                    (ReadableByteChannel) source.near(),
                    target,
                    splice(new RecordingListener(), Duration.ofSeconds(30))));

            assertThat(failure).isInstanceOf(TransferException.class);
            assertThat(failure.getCause()).hasSameClassAs(jdks).hasMessage(jdks.getMessage());
        }
    }

    @Test
    void copy_targetStopsReading_stallTimeout() throws Exception {
        byte[] data = TestFiles.randomBytes(9 << 20, SEED);
        try (LoopbackSender sender = LoopbackSender.toChannel(data);
                LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel target = receiver.connectChannel()) {
            target.configureBlocking(false);

            assertThatThrownBy(() -> Transfers.copy(
                            (ReadableByteChannel) sender.channel(),
                            target,
                            splice(new RecordingListener(), Duration.ofMillis(300))))
                    .isInstanceOf(TransferTimeoutException.class);
            receiver.openGate();
        }
    }

    @Test
    void copy_sourceSendsNothing_stallTimeout() throws Exception {
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            source.near().configureBlocking(false);
            source.send(new byte[1000], false).get(10, TimeUnit.SECONDS);

            assertThatThrownBy(() -> Transfers.copy(
                            (ReadableByteChannel) source.near(),
                            target.near(),
                            splice(new RecordingListener(), Duration.ofMillis(300))))
                    .isInstanceOfSatisfying(
                            TransferTimeoutException.class,
                            e -> assertThat(e.bytesTransferred()).isEqualTo(1000));
            assertThat(target.receive(1000)).isEqualTo(new byte[1000]);
        }
    }

    /** A blocking splice waiting in the kernel for a source that sends nothing more wakes on an interrupt. */
    @Test
    void copy_interruptedWhileBlockedOnSource() throws Exception {
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            source.send(new byte[1000], false).get(10, TimeUnit.SECONDS);
            RecordingListener listener = new RecordingListener();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread copyingThread = new Thread(() -> {
                try {
                    Transfers.copy(
                            (ReadableByteChannel) source.near(),
                            target.near(),
                            splice(listener, Duration.ofSeconds(60)));
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            copyingThread.start();
            target.receive(1000); // the 1000 bytes went through: the next splice waits for more
            awaitInSplice(copyingThread);
            copyingThread.interrupt();

            Throwable failure = outcome.get(20, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferException.class);
            assertThat(((TransferException) failure).bytesTransferred()).isEqualTo(1000);
            assertThat(failure.getCause())
                    .isInstanceOfAny(ClosedByInterruptException.class, InterruptedIOException.class);
            if (failure.getCause() instanceof ClosedByInterruptException) {
                // Usually the read waiting for more; the write of the 1000 bytes if it had not yet returned.
                assertThat(source.near().isOpen() && target.near().isOpen())
                        .as("the interrupted call's channel is closed")
                        .isFalse();
            }
        }
    }

    /**
     * Another thread's close of the target ends a relay that waits on an idle blocking source within
     * 5 s, and the target's peer sees the end: the step's duplicate descriptors keep no socket open.
     */
    @Test
    void copy_targetClosedByAnotherThreadWhileWaiting_endsAndThePeerSeesTheEnd() throws Exception {
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            source.send(new byte[1000], false).get(10, TimeUnit.SECONDS);
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread copyingThread = new Thread(() -> {
                try {
                    Transfers.copy(
                            (ReadableByteChannel) source.near(),
                            target.near(),
                            splice(new RecordingListener(), Duration.ofSeconds(60)));
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            copyingThread.start();
            target.receive(1000);
            awaitInSplice(copyingThread);

            target.near().close();

            assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(TransferException.class);
            CompletableFuture<Integer> end = CompletableFuture.supplyAsync(() -> {
                try {
                    return target.far().read(ByteBuffer.allocate(1));
                } catch (IOException e) {
                    return -2; // a reset is an end too
                }
            });
            assertThat(end.get(5, TimeUnit.SECONDS))
                    .as("the peer's read at the end")
                    .isNegative();
        }
    }

    /** A blocking splice into a socket whose peer stopped reading wakes on an interrupt. */
    @Test
    void copy_interruptedWhileBlockedOnTarget() throws Exception {
        byte[] data = TestFiles.randomBytes(9 << 20, SEED);
        try (LoopbackSender sender = LoopbackSender.toChannel(data);
                LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel target = receiver.connectChannel()) {
            RecordingListener listener = new RecordingListener();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread copyingThread = new Thread(() -> {
                try {
                    Transfers.copy(
                            (ReadableByteChannel) sender.channel(), target, splice(listener, Duration.ofSeconds(60)));
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            copyingThread.start();
            // Its first write into 32 KiB of socket buffers that nobody drains blocks for good.
            awaitInSplice(copyingThread);
            copyingThread.interrupt();

            Throwable failure = outcome.get(20, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferException.class);
            assertThat(failure.getCause())
                    .isInstanceOfAny(ClosedByInterruptException.class, InterruptedIOException.class);
            receiver.openGate();
        }
    }

    /**
     * Waits until {@code thread} is inside the step's native wait for a blocking socket (its stack
     * shows the {@code poll} downcall, or a {@code splice} one); it then stays there, a bounded wait
     * at a time, until something wakes it.
     */
    private static void awaitInSplice(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (Arrays.stream(thread.getStackTrace())
                .noneMatch(frame -> frame.getClassName().equals("io.zerocopy.LinuxCalls")
                        && (frame.getMethodName().equals("splice")
                                || frame.getMethodName().equals("poll")))) {
            assertThat(System.nanoTime()).as("copying thread reached splice(2)").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval, not synchronisation
        }
    }

    /** Transfers that complete, fail and time out leave no pipe and no duplicated socket behind. */
    @Test
    void copy_leavesNoDescriptors() throws Exception {
        assumeTrue(ProcSelf.available(), "needs /proc/self");
        ProcSelf.openWhatTheJdkKeeps();
        int before = ProcSelf.openDescriptors();
        List<String> targetsBefore = ProcSelf.descriptorTargets();
        for (int i = 0; i < 20; i++) {
            try (Connection source = Connection.open();
                    Connection target = Connection.open()) {
                boolean ends = i % 3 != 0;
                // A blocking source that never ends would block in the kernel for ever: only non-blocking ones stay
                // open.
                source.near().configureBlocking(ends && i % 2 == 0);
                source.send(new byte[70_000], ends);
                try {
                    Transfers.copy(
                            (ReadableByteChannel) source.near(),
                            target.near(),
                            splice(new RecordingListener(), Duration.ofMillis(200)));
                } catch (TransferTimeoutException expected) {
                    // every third source stays open: the copy times out with bytes in flight
                }
                target.far().configureBlocking(false);
                target.far().read(ByteBuffer.allocate(80_000));
            }
        }
        int after = ProcSelf.awaitDescriptorsAtMost(before);
        assertThat(after)
                .as("open descriptors, before: %s, after: %s", targetsBefore, ProcSelf.descriptorTargets())
                .isLessThanOrEqualTo(before);
        assertThat(ProcSelf.descriptorTargets().stream()
                        .filter(t -> t.startsWith("pipe:"))
                        .count())
                .isEqualTo(targetsBefore.stream()
                        .filter(t -> t.startsWith("pipe:"))
                        .count());
    }
}
