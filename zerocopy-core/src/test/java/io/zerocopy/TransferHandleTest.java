package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.ArgumentCaptor;

/**
 * The {@link Transfer} handle as an event loop drives it, over real loopback sockets with small
 * buffers: what one {@code advance()} does on a full, a blocking and a paced target, how it ends
 * (done, truncated, closed), what the listener hears, and which files it closes. Failures from
 * the channels are {@link TransferFailureTest}'s.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransferHandleTest {
    /** The default for a file of more than a few pages to a socket on this host (Selection). */
    private static final String AUTO_TO_LOOPBACK = TransferToStrategy.NAME;

    static final long SEED = Long.getLong("zerocopy.seed", 0x7A4E5L);

    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    private final Random random = new Random(SEED);

    @BeforeAll
    static void printSeed() {
        System.out.println(TransferHandleTest.class.getSimpleName() + ": seed " + SEED
                + " (replay with -Dzerocopy.seed=" + SEED + ")");
    }

    private byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    private static TransferOptions copier(String strategy, TransferListener listener) {
        TransferOptions.Builder options = TransferOptions.builder()
                .listener(listener)
                .bufferSize(64 * 1024)
                .mappedWindow(256 * 1024);
        if (!strategy.equals("auto")) {
            options.strategy(strategy);
        }
        return options.build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "transferTo", "buffered", "mmap"})
    void advance_fullNonBlockingSocket_returnsZeroAtOnceWaitingForWrite(String strategy) throws Exception {
        byte[] data = randomBytes(MIB + 17);
        Path path = Files.write(dir.resolve("source"), data);
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            Transfer transfer =
                    Transfers.open(FileRegion.of(file, 0, data.length), pair.sender, copier(strategy, listener));
            assertThat(transfer.interestOps()).as("before the first advance").isEqualTo(SelectionKey.OP_WRITE);

            long first = transfer.advance(); // the receiver reads nothing: fills both socket buffers
            long second = transfer.advance();

            assertThat(first)
                    .as("the first advance fills the socket")
                    .isPositive()
                    .isLessThan(data.length);
            assertThat(second).as("an advance on a full socket").isZero();
            assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);
            assertThat(transfer.isDone()).isFalse();
            assertThat(transfer.bytesTransferred()).isEqualTo(first);
            assertThat(pair.sender.isRegistered())
                    .as("the library registered the caller's channel")
                    .isFalse();
            assertThat(pair.sender.isBlocking()).isFalse();

            CompletableFuture<byte[]> received = pair.drainInBackground();
            EventLoops.drive(transfer, pair.sender);
            pair.sender.shutdownOutput();

            ByteArrays.assertSameBytes("received", received.get(20, TimeUnit.SECONDS), data);
            assertThat(transfer.result().bytesTransferred()).isEqualTo(data.length);
            assertThat(transfer.interestOps()).as("when done").isZero();
            assertThat(file.position()).as("the source's position").isZero();
            String ran = strategy.equals("auto") ? AUTO_TO_LOOPBACK : strategy;
            ListenerCalls.verifyCompleted(listener, ran, data.length, data.length);
        }
    }

    @Test
    void advance_selectorLoopOnOddSlice_deliversExactlyTheSlice() throws Exception {
        byte[] data = randomBytes(3 * MIB + 5);
        Path path = Files.write(dir.resolve("source"), data);
        int position = 4097;
        int count = data.length - position - 9001;
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            file.position(123);
            CompletableFuture<byte[]> received = pair.drainInBackground();
            Transfer transfer = Transfers.open(FileRegion.of(file, position, count), pair.sender);

            int calls = EventLoops.drive(transfer, pair.sender);
            pair.sender.shutdownOutput();

            ByteArrays.assertSameBytes(
                    "received",
                    received.get(20, TimeUnit.SECONDS),
                    Arrays.copyOfRange(data, position, position + count));
            assertThat(calls).isPositive();
            assertThat(transfer.bytesTransferred()).isEqualTo(count);
            assertThat(transfer.count()).isEqualTo(count);
            assertThat(transfer.advance()).as("advance once done").isZero();
            assertThat(file.position()).as("the source's position").isEqualTo(123);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"transferTo", "buffered", "mmap"})
    void advance_blockingTarget_movesAtMostOneStepPerCall(String strategy) throws Exception {
        byte[] data = randomBytes(MIB + 3);
        Path path = Files.write(dir.resolve("source"), data);
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            CompletableFuture<byte[]> received = pair.drainInBackground();
            Transfer transfer =
                    Transfers.open(FileRegion.of(file, 0, data.length), pair.sender, copier(strategy, listener));

            int calls = 0;
            while (!transfer.isDone()) {
                int stepsBefore = ListenerCalls.progress(listener).size();
                long moved = transfer.advance();
                calls++;
                assertThat(ListenerCalls.progress(listener).size() - stepsBefore)
                        .as("steps in advance() call %d", calls)
                        .isEqualTo(moved > 0 ? 1 : 0);
                assertThat(calls).as("advance() calls").isLessThan(10_000);
            }
            pair.sender.shutdownOutput();

            ByteArrays.assertSameBytes("received", received.get(20, TimeUnit.SECONDS), data);
            ListenerCalls.verifyCompleted(listener, strategy, data.length, data.length);
            if (!strategy.equals("transferTo")) {
                // a step of these is at most one 64 KiB buffer or one 256 KiB window
                assertThat(calls).isGreaterThanOrEqualTo(data.length / (256 * 1024));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "buffered", "mmap"})
    void advance_fileTruncatedMidway_throwsTruncatedSourceExceptionWithTheCount(String strategy) throws Exception {
        byte[] data = randomBytes(4 * MIB);
        Path path = Files.write(dir.resolve("source"), data);
        int shrunk = MIB + 11;
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            Transfer transfer =
                    Transfers.open(FileRegion.of(file, 0, data.length), pair.sender, copier(strategy, listener));
            long before = transfer.advance(); // fills the socket; the receiver is not reading yet
            assertThat(before).isPositive().isLessThan(shrunk);
            try (FileChannel writer = FileChannel.open(path, StandardOpenOption.WRITE)) {
                writer.truncate(shrunk);
            }
            CompletableFuture<byte[]> received = pair.drainInBackground();

            TruncatedSourceException e =
                    catchThrowableOfType(TruncatedSourceException.class, () -> EventLoops.drive(transfer, pair.sender));
            pair.sender.shutdownOutput();

            assertThat(e).as("the failure").isNotNull();
            // mmap may send zeros up to the end of the page that holds the new end of the file
            long atMost = strategy.equals("mmap") ? (shrunk + 4095) / 4096 * 4096 : shrunk;
            assertThat(e.bytesTransferred())
                    .isEqualTo(transfer.bytesTransferred())
                    .isLessThanOrEqualTo(atMost);
            assertThat(e.expectedSize()).isEqualTo(data.length);
            assertThat(e.actualSize()).isEqualTo(shrunk);
            byte[] got = received.get(20, TimeUnit.SECONDS);
            assertThat((long) got.length).as("bytes the receiver got").isEqualTo(e.bytesTransferred());
            if (!strategy.equals("mmap")) { // mmap's tail after a truncation is not to be trusted
                ByteArrays.assertSameBytes("received", got, Arrays.copyOf(data, got.length));
            }
            ListenerCalls.verifyFailedAfterProgress(
                    listener, strategy.equals("auto") ? AUTO_TO_LOOPBACK : strategy, data.length, e);
            assertThrows(IllegalStateException.class, transfer::advance);
            assertThat(transfer.isDone()).isFalse();
        }
    }

    @Test
    void listenerEvents_areThoseOfTheBlockingCopy() throws Exception {
        byte[] data = randomBytes(300_001);
        Path path = Files.write(dir.resolve("source"), data);
        long seed = random.nextLong();
        TransferListener ofCopy = ListenerCalls.mockListener();
        TransferListener ofHandle = ListenerCalls.mockListener();
        Target copyTarget = Target.of(Behaviour.RANDOM_SHORT, new Random(seed));
        Target handleTarget = Target.of(Behaviour.RANDOM_SHORT, new Random(seed));
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            long copied = Transfers.copy(file, 0, data.length, copyTarget, copier("auto", ofCopy));

            Transfer transfer =
                    Transfers.open(FileRegion.of(file, 0, data.length), handleTarget, copier("auto", ofHandle));
            verify(ofHandle).onStart(anyString(), eq((long) data.length)); // heard at open
            verifyNoMoreInteractions(ofHandle); // no progress before the first advance
            while (!transfer.isDone()) {
                transfer.advance();
            }

            assertThat(copied).isEqualTo(data.length);
            ArgumentCaptor<String> strategy = ArgumentCaptor.forClass(String.class);
            verify(ofCopy).onStart(strategy.capture(), anyLong());
            TransferResult ofCopyResult =
                    ListenerCalls.verifyCompleted(ofCopy, strategy.getValue(), data.length, data.length);
            TransferResult ofHandleResult =
                    ListenerCalls.verifyCompleted(ofHandle, strategy.getValue(), data.length, data.length);
            assertThat(ListenerCalls.progress(ofHandle)).as("progress calls").isEqualTo(ListenerCalls.progress(ofCopy));
            assertThat(ofHandleResult.reason()).isEqualTo(ofCopyResult.reason());
            assertThat(transfer.result()).isSameAs(ofHandleResult);
            ByteArrays.assertSameBytes("handle target", handleTarget.bytes(), data);
            ByteArrays.assertSameBytes("copy target", copyTarget.bytes(), data);
        }
    }

    @Test
    void result_beforeDone_throwsIllegalState() throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            Transfer transfer = Transfers.open(FileRegion.of(file, 0, 1000), Target.of(Behaviour.ONE_BYTE, random));
            transfer.advance();

            assertThat(transfer.bytesTransferred()).isEqualTo(1);
            IllegalStateException e = assertThrows(IllegalStateException.class, transfer::result);
            assertThat(e).hasMessageContaining("1 of 1000");
            transfer.close();
        }
    }

    @Test
    void close_beforeDone_failsOnceAndEndsTheTransfer() throws Exception {
        byte[] data = randomBytes(MIB);
        Path path = Files.write(dir.resolve("source"), data);
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            Transfer transfer =
                    Transfers.open(FileRegion.of(file, 0, data.length), pair.sender, copier("auto", listener));
            long moved = transfer.advance();

            transfer.close();
            transfer.close();

            ArgumentCaptor<TransferException> told = ArgumentCaptor.forClass(TransferException.class);
            verify(listener).onFailure(told.capture());
            TransferException failure = told.getValue();
            assertThat(failure.bytesTransferred()).isEqualTo(moved).isEqualTo(transfer.bytesTransferred());
            assertThat(failure).hasMessageContaining("closed");
            ListenerCalls.verifyFailed(listener, AUTO_TO_LOOPBACK, data.length, failure);
            assertThrows(IllegalStateException.class, transfer::advance);
            assertThrows(IllegalStateException.class, transfer::result);
            assertThat(transfer.isDone()).isFalse();
            assertThat(transfer.interestOps()).isZero();
            assertThat(pair.sender.isOpen()).as("the caller's socket").isTrue();
            assertThat(pair.sender.isBlocking()).isFalse();
            assertThat(file.isOpen()).as("the caller's file").isTrue();
        }
    }

    @Test
    void open_countZero_isDoneAtOnce() throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(100));
        TransferListener listener = ListenerCalls.mockListener();
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            Transfer transfer = Transfers.open(FileRegion.of(file, 37, 0), target, copier("auto", listener));

            assertThat(transfer.isDone()).isTrue();
            assertThat(transfer.count()).isZero();
            assertThat(transfer.interestOps()).isZero();
            assertThat(transfer.result().bytesTransferred()).isZero();
            assertThat(transfer.advance()).isZero();
            ListenerCalls.verifyCompleted(listener, BufferedStrategy.NAME, 0, 0);
            assertThat(target.calls()).as("calls into the target").isZero();
            transfer.close();
            verifyNoMoreInteractions(listener); // close after done says nothing more
        }
    }

    @Test
    void advance_aheadOfRateLimit_asksForADelayAndNoReadiness() throws Exception {
        long rate = 1_000_000;
        byte[] data = randomBytes(250_000);
        Path path = Files.write(dir.resolve("source"), data);
        try (LoopbackPair pair = LoopbackPair.open(0);
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            CompletableFuture<byte[]> received = pair.drainInBackground();
            Transfer transfer = Transfers.open(
                    FileRegion.of(file, 0, data.length),
                    pair.sender,
                    TransferOptions.builder().rateLimit(rate).build());

            long first = transfer.advance();
            long second = transfer.advance();

            assertThat(first)
                    .as("a step is a tenth of a second's worth")
                    .isPositive()
                    .isLessThanOrEqualTo(rate / 10);
            assertThat(second).as("ahead of the rate").isZero();
            assertThat(transfer.interestOps())
                    .as("nothing to wait for but time")
                    .isZero();
            // the step's bytes are due at most first/rate seconds after the start, which has passed
            assertThat(transfer.delayNanos()).isPositive().isLessThanOrEqualTo(first * 1_000_000_000L / rate);

            EventLoops.drive(transfer, pair.sender);
            pair.sender.shutdownOutput();
            ByteArrays.assertSameBytes("received", received.get(20, TimeUnit.SECONDS), data);
            assertThat(transfer.delayNanos()).as("when done").isZero();
        }
    }

    @Test
    void openPath_closesTheFileItOpened_whenDone() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
        byte[] data = randomBytes(200_000);
        Path path = Files.write(dir.resolve("source"), data);
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);

        Transfer transfer = Transfers.open(path, target);
        assertThat(descriptorsOf(path)).as("descriptors on the file while open").isEqualTo(1);
        while (!transfer.isDone()) {
            transfer.advance();
        }

        assertThat(descriptorsOf(path)).as("descriptors on the file once done").isZero();
        ByteArrays.assertSameBytes("target", target.bytes(), data);
    }

    @Test
    void openPath_closesTheFileItOpened_whenClosedEarly() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
        Path path = Files.write(dir.resolve("source"), randomBytes(MIB));
        try (LoopbackPair pair = LoopbackPair.open()) {
            pair.sender.configureBlocking(false);
            Transfer transfer = Transfers.open(path, pair.sender);
            transfer.advance();
            assertThat(transfer.isDone()).isFalse();
            assertThat(descriptorsOf(path))
                    .as("descriptors on the file while open")
                    .isEqualTo(1);

            transfer.close();

            assertThat(descriptorsOf(path))
                    .as("descriptors on the file once closed")
                    .isZero();
            assertThat(pair.sender.isOpen()).isTrue();
        }
    }

    /**
     * A listener that throws ends a handle's transfer as it ends a blocking copy: the exception
     * reaches the caller as it is, {@code onFailure} is not called, the file the library opened is
     * closed, and the transfer is over, also when it threw on the last step (where a transfer left
     * running found the slice's end and called it a file that ended early).
     */
    @ParameterizedTest
    @ValueSource(strings = {"first", "last"})
    void advance_listenerThrows_endsTheTransferUnheard(String throwingStep) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
        int size = 49 * 4096;
        Path path = Files.write(dir.resolve("source"), randomBytes(size));
        IllegalStateException thrown = new IllegalStateException("the listener's own");
        List<TransferException> heard = new ArrayList<>();
        TransferListener listener = new TransferListener() {
            @Override
            public void onProgress(long bytesTransferred) {
                if (throwingStep.equals("first") || bytesTransferred == size) {
                    throw thrown;
                }
            }

            @Override
            public void onFailure(TransferException failure) {
                heard.add(failure);
            }
        };
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        Transfer transfer = Transfers.open(
                path, target, TransferOptions.builder().listener(listener).build());

        Throwable caught = null;
        for (int calls = 0; caught == null && calls < 100_000; calls++) {
            try {
                transfer.advance();
            } catch (IllegalStateException e) {
                caught = e;
            }
        }

        assertThat(caught).isSameAs(thrown);
        assertThat(transfer.isDone()).isFalse();
        assertThat(transfer.interestOps()).isZero();
        assertThatThrownBy(transfer::advance).isInstanceOf(IllegalStateException.class);
        transfer.close();
        assertThat(heard).as("onFailure").isEmpty();
        assertThat(descriptorsOf(path)).as("descriptors on the file").isZero();

        // the blocking verb, built on the same transfer
        assertThatThrownBy(() -> Transfers.copy(
                        path,
                        Target.of(Behaviour.RANDOM_SHORT, random),
                        TransferOptions.builder().listener(listener).build()))
                .isSameAs(thrown);
        assertThat(heard).as("onFailure").isEmpty();
        assertThat(descriptorsOf(path)).as("descriptors on the file").isZero();
    }

    /**
     * A listener may close its own transfer on any step, the last included: the transfer then ends
     * closed, heard once, by {@code onFailure}, and never completes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"first", "last"})
    void closeFromTheListener_endsTheTransferClosed_heardOnce(String closingStep) throws Exception {
        int size = 49 * 4096;
        Path path = Files.write(dir.resolve("source"), randomBytes(size));
        List<String> heard = new ArrayList<>();
        Transfer[] self = new Transfer[1];
        TransferListener listener = new TransferListener() {
            @Override
            public void onProgress(long bytesTransferred) {
                if (closingStep.equals("first") || bytesTransferred == size) {
                    self[0].close();
                }
            }

            @Override
            public void onComplete(TransferResult result) {
                heard.add("onComplete");
            }

            @Override
            public void onFailure(TransferException failure) {
                heard.add("onFailure: " + failure.getMessage());
            }
        };
        self[0] = Transfers.open(
                path,
                Target.of(Behaviour.RANDOM_SHORT, random),
                TransferOptions.builder().listener(listener).build());

        Throwable over = null;
        for (int calls = 0; over == null && calls < 100_000; calls++) {
            over = catchThrowable(self[0]::advance);
        }

        assertThat(over).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(heard).hasSize(1).first().asString().startsWith("onFailure: transfer closed");
        assertThat(self[0].isDone()).isFalse();
        assertThatThrownBy(self[0]::result).isInstanceOf(IllegalStateException.class);
    }

    /**
     * A listener that advances its own transfer again is refused: the {@code IllegalStateException}
     * ends the transfer as anything a listener throws does, unheard, and nothing is counted twice.
     */
    @Test
    void advanceFromTheListener_isRefused() throws Exception {
        int size = 49 * 4096;
        Path path = Files.write(dir.resolve("source"), randomBytes(size));
        List<Object> heard = new ArrayList<>();
        Transfer[] self = new Transfer[1];
        TransferListener listener = new TransferListener() {
            @Override
            public void onProgress(long bytesTransferred) {
                try {
                    self[0].advance();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public void onComplete(TransferResult result) {
                heard.add(result);
            }

            @Override
            public void onFailure(TransferException failure) {
                heard.add(failure);
            }
        };
        self[0] = Transfers.open(
                path,
                Target.of(Behaviour.RANDOM_SHORT, random),
                TransferOptions.builder().listener(listener).build());

        assertThatThrownBy(self[0]::advance)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("listener");
        assertThat(heard).as("onComplete and onFailure").isEmpty();
        assertThat(self[0].isDone()).isFalse();
        assertThatThrownBy(self[0]::advance).isInstanceOf(IllegalStateException.class);
    }

    /** A listener that throws from {@code onStart}: the exception as it is, nothing held, the pool's buffer back. */
    @Test
    void open_listenerThrowsOnStart_holdsNothing() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
        Path path = Files.write(dir.resolve("source"), randomBytes(200_000));
        IllegalStateException thrown = new IllegalStateException("the listener's own");
        TransferOptions options = TransferOptions.builder()
                .strategy("buffered")
                .listener(new TransferListener() {
                    @Override
                    public void onStart(String strategy, long expectedBytes) {
                        throw thrown;
                    }
                })
                .build();
        assertThatThrownBy(() -> Transfers.open(path, Target.of(Behaviour.RANDOM_SHORT, random), options))
                .isSameAs(thrown);
        long allocated = DirectBuffers.SHARED.allocated();

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> Transfers.open(path, Target.of(Behaviour.RANDOM_SHORT, random), options))
                    .isSameAs(thrown);
        }

        assertThat(descriptorsOf(path)).as("descriptors on the file").isZero();
        assertThat(DirectBuffers.SHARED.allocated())
                .as("direct bytes allocated: each buffer went back and was lent again")
                .isEqualTo(allocated);
    }

    @Test
    void openPath_rejectedBeforeStart_closesTheFile() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        TransferOptions forcedFrom =
                TransferOptions.builder().strategy("transferFrom").build();

        assertThrows(
                IllegalArgumentException.class,
                () -> Transfers.open(path, Target.of(Behaviour.ONE_BYTE, random), forcedFrom));

        assertThat(descriptorsOf(path)).isZero();
    }

    /** Open descriptors of this process that point at {@code file}, from {@code /proc/self/fd}. */
    static long descriptorsOf(Path file) throws IOException {
        Path real = file.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).equals(real);
                        } catch (IOException e) {
                            return false; // closed while listed
                        }
                    })
                    .count();
        }
    }
}
