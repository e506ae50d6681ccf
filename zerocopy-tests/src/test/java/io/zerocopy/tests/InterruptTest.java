package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A thread sending a file to a peer that never reads is interrupted once progress has been seen.
 * The copy must end with a {@link TransferException} caused by {@link ClosedByInterruptException}
 * (the interrupt hit a JDK channel call, which closes the channel) or {@link InterruptedIOException}
 * (the engine saw it between calls, and the channel stays open), and leave the interrupt flag set.
 *
 * <p>Every step must be small enough to fit in the socket buffers, or the first one would block
 * before any progress: the cases bound it with the buffer, the window, or (for a blocking
 * {@code sendfile}, which returns only when everything asked for is sent) a rate limit. A
 * non-blocking target needs nothing: its steps are short by nature and the engine waits in a
 * selector. Every case also checks that no file descriptor is left open once its sockets are closed.
 *
 * <p>The copy runs on a platform thread here, on a virtual thread in {@link VirtualThreadInterruptTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptTest {
    private static final long SEED = Seeds.announce(InterruptTest.class);

    private static final int SIZE = 8 << 20;
    private static final int SMALL_STEP = 4096;

    @TempDir
    static Path dir;

    private static Path file;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(threads());

    @BeforeAll
    static void createFile() throws Exception {
        file = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(SIZE, SEED));
    }

    /** The kind of thread that copies. */
    ThreadKind threads() {
        return ThreadKind.PLATFORM;
    }

    /** How the sending thread ended. */
    record Outcome(Throwable failure, long returned, boolean interruptFlag) {}

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("auto", "non-blocking", TransferOptions.builder()),
                Arguments.of("mmap", "non-blocking", TransferOptions.builder().strategy("mmap")),
                Arguments.of(
                        "buffered", "non-blocking", TransferOptions.builder().strategy("buffered")),
                Arguments.of(
                        "transferTo", "non-blocking", TransferOptions.builder().strategy("transferTo")),
                // 10 steps a second of SMALL_STEP bytes
                Arguments.of(
                        "transferTo",
                        "blocking",
                        TransferOptions.builder().strategy("transferTo").rateLimit(SMALL_STEP * 10)),
                Arguments.of(
                        "mmap",
                        "blocking",
                        TransferOptions.builder().strategy("mmap").mappedWindow(SMALL_STEP)),
                Arguments.of(
                        "buffered",
                        "blocking",
                        TransferOptions.builder().strategy("buffered").bufferSize(SMALL_STEP)));
    }

    @ParameterizedTest(name = "{0} to a {1} socket")
    @MethodSource("cases")
    void copy_interruptedWhileStalled(String strategy, String mode, TransferOptions.Builder options) throws Exception {
        CountDownLatch progressed = new CountDownLatch(1);
        RecordingListener listener = new RecordingListener(bytesSoFar -> progressed.countDown());
        TransferOptions copier = options.listener(listener).build();

        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            channel.configureBlocking(mode.equals("blocking"));
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            Thread sender = threads()
                    .newThread(
                            () -> {
                                try {
                                    long n = Transfers.copy(file, (WritableByteChannel) channel, copier);
                                    outcome.complete(new Outcome(
                                            null, n, Thread.currentThread().isInterrupted()));
                                } catch (Throwable t) {
                                    outcome.complete(new Outcome(
                                            t, -1, Thread.currentThread().isInterrupted()));
                                }
                            },
                            "interrupted-sender");
            sender.start();
            try {
                assertThat(progressed.await(30, TimeUnit.SECONDS))
                        .as("progress before the interrupt")
                        .isTrue();
                sender.interrupt();
                Outcome ended = outcome.get(30, TimeUnit.SECONDS);

                assertThat(ended.failure()).as("failure").isInstanceOf(TransferException.class);
                TransferException failure = (TransferException) ended.failure();
                assertThat(failure.getCause())
                        .as("cause")
                        .isInstanceOfAny(ClosedByInterruptException.class, InterruptedIOException.class);
                assertThat(ended.interruptFlag()).as("interrupt flag still set").isTrue();
                assertThat(failure.bytesTransferred())
                        .as("bytes transferred")
                        .isPositive()
                        .isLessThan(SIZE);
                assertThat(listener.failure()).as("onFailure").isSameAs(failure);
                if (failure.getCause() instanceof InterruptedIOException) {
                    // Seen between channel calls: nothing was closed.
                    assertThat(channel.isOpen()).as("channel still open").isTrue();
                }
                if (strategy.equals("auto")) {
                    assertThat(listener.strategy()).isEqualTo(TestFiles.DEFAULT_FILE_TO_SOCKET);
                }
            } finally {
                sender.interrupt();
                sender.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThat(sender.isAlive()).as("sender thread ended").isFalse();
        }
    }
}
