package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

/**
 * The failure contract after {@code onStart}, for a {@link Transfer} and for {@code copy}: an
 * unchecked exception from a channel becomes a {@link TransferException} with the count and the
 * original as its cause, after {@code onFailure}; an {@code Error} reaches {@code onFailure} wrapped
 * and is then thrown as itself; the transfer is over either way. Here on the test's own (platform)
 * thread; {@link VirtualThreadTransferFailureTest} runs the same cases on a virtual thread.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransferFailureTest {
    static final long SEED = Long.getLong("zerocopy.seed", 0xFA11L);

    @TempDir
    Path dir;

    private final Random random = new Random(SEED);

    @BeforeAll
    static void printSeed() {
        System.out.println(TransferFailureTest.class.getSimpleName() + ": seed " + SEED
                + " (replay with -Dzerocopy.seed=" + SEED + ")");
    }

    private byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Runs a case's transfer on the thread the test class stands for: here, the calling one. */
    <T> T onCopyingThread(Callable<T> transfer) throws Exception {
        return transfer.call();
    }

    private static TransferOptions options(TransferListener listener) {
        return TransferOptions.builder()
                .listener(listener)
                .bufferSize(64 * 1024)
                .build();
    }

    @Test
    void advance_runtimeExceptionFromChannel_becomesTransferExceptionWithCount() throws Exception {
        byte[] data = randomBytes(100_000);
        Path path = Files.write(dir.resolve("source"), data);
        IllegalStateException bug = new IllegalStateException("injected channel bug");
        TransferListener listener = ListenerCalls.mockListener();
        ThrowingTarget target = new ThrowingTarget(30_000, bug);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            Transfer transfer = Transfers.open(FileRegion.of(file, 0, data.length), target, options(listener));

            TransferException e = catchThrowableOfType(
                    TransferException.class,
                    () -> onCopyingThread(() -> {
                        while (!transfer.isDone()) {
                            transfer.advance();
                        }
                        return null;
                    }));

            assertThat(e).isNotNull();
            assertThat(e.getCause()).isSameAs(bug);
            assertThat(e.bytesTransferred()).isEqualTo(target.accepted).isEqualTo(transfer.bytesTransferred());
            ListenerCalls.verifyFailed(listener, BufferedStrategy.NAME, data.length, e);
            assertThrows(IllegalStateException.class, transfer::advance);
        }
    }

    @Test
    void advance_errorFromChannel_toldToOnFailureFirstThenRethrownAsItself() throws Exception {
        byte[] data = randomBytes(100_000);
        Path path = Files.write(dir.resolve("source"), data);
        InjectedError error = new InjectedError();
        TransferListener listener = ListenerCalls.mockListener();
        ThrowingTarget target = new ThrowingTarget(30_000, error);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            Transfer transfer = Transfers.open(FileRegion.of(file, 0, data.length), target, options(listener));

            InjectedError thrown = catchThrowableOfType(
                    InjectedError.class,
                    () -> onCopyingThread(() -> {
                        while (!transfer.isDone()) {
                            transfer.advance();
                        }
                        return null;
                    }));

            assertThat(thrown).isSameAs(error);
            ArgumentCaptor<TransferException> failure = ArgumentCaptor.forClass(TransferException.class);
            InOrder inOrder = inOrder(listener);
            inOrder.verify(listener).onStart(BufferedStrategy.NAME, data.length);
            inOrder.verify(listener).onFailure(failure.capture());
            verify(listener, never()).onComplete(any());
            TransferException told = failure.getValue();
            assertThat(told.getCause()).isSameAs(error);
            assertThat(told.bytesTransferred()).isEqualTo(target.accepted);
            ListenerCalls.verifyFailed(listener, BufferedStrategy.NAME, data.length, told);
            assertThrows(IllegalStateException.class, transfer::advance);
        }
    }

    @Test
    void copy_runtimeExceptionFromChannel_followsTheSameContract() throws Exception {
        byte[] data = randomBytes(100_000);
        Path path = Files.write(dir.resolve("source"), data);
        UnsupportedOperationException bug = new UnsupportedOperationException("injected");
        TransferListener listener = ListenerCalls.mockListener();
        ThrowingTarget target = new ThrowingTarget(50_000, bug);

        TransferException e = assertThrows(
                TransferException.class, () -> onCopyingThread(() -> Transfers.copy(path, target, options(listener))));

        assertThat(e.getCause()).isSameAs(bug);
        assertThat(e.bytesTransferred()).isEqualTo(target.accepted);
        ListenerCalls.verifyFailed(listener, BufferedStrategy.NAME, data.length, e);
    }

    /**
     * A failure names what an operator needs first: the file a path verb opened and the socket's
     * peer. The peer has reset the connection, so the first write fails.
     */
    @Test
    void copy_pathToSocketFails_messageNamesTheFileAndThePeer() throws Exception {
        Path path = Files.write(dir.resolve("named.bin"), new byte[1 << 20]);
        try (LoopbackPair pair = LoopbackPair.open(LoopbackPair.SMALL_BUFFER)) {
            String peer = pair.sender.getRemoteAddress().toString();
            pair.receiver.setOption(StandardSocketOptions.SO_LINGER, 0);
            pair.receiver.close(); // a reset

            TransferException e = assertThrows(
                    TransferException.class,
                    () -> onCopyingThread(() -> Transfers.copy(path, pair.sender, options(TransferListener.NONE))));

            assertThat(e.getMessage()).contains("from " + path).contains("to " + peer);
        }
    }

    /** A stall names the transfer's ends, as every other failure of a copy from a path does. */
    @Test
    void copy_pathToSocketStalls_messageNamesTheFileAndThePeer() throws Exception {
        Path path = Files.write(dir.resolve("stalled.bin"), new byte[8 << 20]);
        try (LoopbackPair pair = LoopbackPair.open(LoopbackPair.SMALL_BUFFER)) {
            String peer = pair.sender.getRemoteAddress().toString();
            pair.sender.configureBlocking(false); // the receiver reads nothing: the timeout is exact
            TransferOptions stallsSoon = TransferOptions.builder()
                    .stallTimeout(Duration.ofMillis(200))
                    .build();

            TransferException e = assertThrows(
                    TransferException.class,
                    () -> onCopyingThread(() -> Transfers.copy(path, pair.sender, stallsSoon)));

            assertThat(e).isInstanceOf(TransferTimeoutException.class);
            assertThat(e.getMessage())
                    .contains("no progress for 200 ms")
                    .contains("from " + path)
                    .contains("to " + peer);
        }
    }

    /** A copy between two paths names its source in a failure, as a copy from a path into a channel does. */
    @Test
    void copy_pathToPathSourceShrinks_messageNamesTheSource() throws Exception {
        Path source = Files.write(dir.resolve("shrinking.bin"), randomBytes(3_000_000));
        TransferListener cut = new TransferListener() {
            @Override
            public void onProgress(long bytesTransferred) {
                try (FileChannel file = FileChannel.open(source, StandardOpenOption.WRITE)) {
                    file.truncate(700_000);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        // steps of 600,000 bytes under this rate limit: the cut comes between two of them
        TransferOptions options =
                TransferOptions.builder().listener(cut).rateLimit(6_000_000).build();

        TransferException e = assertThrows(
                TransferException.class,
                () -> onCopyingThread(() -> Transfers.copy(source, dir.resolve("copy.bin"), options)));

        assertThat(e).isInstanceOf(TruncatedSourceException.class);
        assertThat(e.getMessage()).contains("from " + source);
    }

    /**
     * The JDK's close and interrupt exceptions carry no message: the failure's words name the
     * exception instead of saying "null".
     */
    @Test
    void copy_failureWithoutMessage_wordedByItsType() throws Exception {
        Path path = Files.write(dir.resolve("closed-under"), randomBytes(50_000));
        ThrowingTarget target = new ThrowingTarget(8_192, new AsynchronousCloseException());

        TransferException e = assertThrows(
                TransferException.class,
                () -> onCopyingThread(() -> Transfers.copy(path, target, options(TransferListener.NONE))));

        assertThat(e.getCause()).isInstanceOf(AsynchronousCloseException.class);
        assertThat(e.getMessage())
                .contains("after 8192 bytes: AsynchronousCloseException")
                .doesNotContain("null");
    }

    /** An unchecked throwable a buggy channel might throw; a type of its own so nothing else is mistaken for it. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError() {
            super("injected error");
        }
    }

    /** Accepts up to 4,096 bytes a call until {@code limit} bytes, then throws {@code failure} on every call. */
    static final class ThrowingTarget implements WritableByteChannel {
        private final long limit;
        private final Throwable failure;
        long accepted;

        ThrowingTarget(long limit, Throwable failure) {
            this.limit = limit;
            this.failure = failure;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (accepted >= limit) {
                if (failure instanceof Error) {
                    throw (Error) failure;
                }
                if (failure instanceof IOException) {
                    throw (IOException) failure;
                }
                throw (RuntimeException) failure;
            }
            int n = (int) Math.min(Math.min(src.remaining(), 4096), limit - accepted);
            src.position(src.position() + n);
            accepted += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
