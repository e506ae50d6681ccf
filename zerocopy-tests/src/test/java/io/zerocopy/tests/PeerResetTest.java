package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.Mockito.mock;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import io.zerocopy.testing.ListenerOrder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The peer reads a little, then resets the connection ({@code SO_LINGER} 0) while the file is still
 * being sent: the copy must fail promptly with a {@link TransferException} that counts at least
 * the bytes the peer read, with the socket error as its cause, and leave no descriptor open.
 *
 * <p>The copy runs on a platform thread here, on a virtual thread in {@link VirtualThreadPeerResetTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerResetTest {
    private static final long SEED = Seeds.announce(PeerResetTest.class);

    private static final int SIZE = 8 << 20;

    /** The peer resets once it has read this much. */
    private static final int READ_BEFORE_RESET = 64 << 10;

    @TempDir
    static Path dir;

    private static Path file;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(threads());

    /** The kind of thread that copies. */
    ThreadKind threads() {
        return ThreadKind.PLATFORM;
    }

    @BeforeAll
    static void createFile() throws Exception {
        file = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(SIZE, SEED));
        mock(TransferListener.class); // the first mock opens a jar Mockito keeps open: before descriptors are counted
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String strategy : new String[] {"auto", "transferTo", "mmap", "buffered"}) {
            for (String mode : new String[] {"blocking", "non-blocking"}) {
                cases.add(Arguments.of(strategy, mode, SEED));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} to a {1} socket (seed {2})")
    @MethodSource("cases")
    void copy_peerResetsConnection(String strategy, String mode, long seed) throws Exception {
        TransferListener listener = mock(TransferListener.class);
        TransferOptions.Builder options = TransferOptions.builder().listener(listener);
        TransferOptions copier = (strategy.equals("auto") ? options : options.strategy(strategy)).build();
        try (LoopbackReceiver receiver =
                        LoopbackReceiver.resettingAfter(READ_BEFORE_RESET, LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            channel.configureBlocking(mode.equals("blocking"));

            TransferException failure = catchThrowableOfType(
                    TransferException.class,
                    () -> threads().call(() -> Transfers.copy(file, (WritableByteChannel) channel, copier)));
            long readByPeer = receiver.readBeforeReset();

            assertThat(failure)
                    .as("TransferException")
                    .isNotNull()
                    .isNotInstanceOf(TransferTimeoutException.class)
                    .isNotInstanceOf(TruncatedSourceException.class);
            assertThat(failure.getCause()).as("cause").isInstanceOf(IOException.class);
            assertThat(readByPeer).as("bytes the peer read").isGreaterThanOrEqualTo(READ_BEFORE_RESET);
            // Everything the peer read went through the sender's kernel, so it was counted.
            assertThat(failure.bytesTransferred())
                    .as("bytes transferred")
                    .isGreaterThanOrEqualTo(readByPeer)
                    .isLessThan(SIZE);
            ListenerOrder.verifyFailed(
                    listener, strategy.equals("auto") ? TestFiles.DEFAULT_FILE_TO_SOCKET : strategy, failure);
        }
    }

    static Stream<Arguments> endings() {
        List<Arguments> cases = new ArrayList<>();
        for (String strategy : new String[] {"auto", "transferTo", "mmap", "buffered"}) {
            for (String mode : new String[] {"blocking", "non-blocking"}) {
                for (String ending : new String[] {"resets", "closes"}) {
                    cases.add(Arguments.of(strategy, mode, ending, SEED));
                }
            }
        }
        return cases.stream();
    }

    /**
     * The peer reads a little, stops reading (the sender fills the buffers and waits), then resets
     * or closes the connection. While it waits the sender must not spin: its thread's CPU time over
     * a measured stretch of the wait stays under half the wall time (a spinning loop uses all of
     * it). Then the copy must end with a {@link TransferException} counting at least what the peer read.
     */
    @ParameterizedTest(name = "{0} to a {1} socket, peer {2} (seed {3})")
    @MethodSource("endings")
    void copy_peerStopsReadingThenEnds_senderWaitsWithoutSpinning(
            String strategy, String mode, String ending, long seed) throws Exception {
        ThreadMXBean cpuClock = ManagementFactory.getThreadMXBean();
        assumeTrue(cpuClock.isThreadCpuTimeSupported(), "needs thread CPU time");
        cpuClock.setThreadCpuTimeEnabled(true);
        TransferOptions.Builder options = TransferOptions.builder();
        TransferOptions copier = (strategy.equals("auto") ? options : options.strategy(strategy)).build();
        ExecutorService sender =
                Executors.newSingleThreadExecutor(task -> threads().newThread(task, "sender"));
        try (LoopbackReceiver receiver = LoopbackReceiver.endingAfter(
                        READ_BEFORE_RESET, LoopbackReceiver.SMALL_BUFFER, ending.equals("resets"));
                SocketChannel channel = receiver.connectChannel()) {
            channel.configureBlocking(mode.equals("blocking"));
            CompletableFuture<Thread> senderThread = new CompletableFuture<>();
            Future<Long> copy = sender.submit(() -> {
                senderThread.complete(Thread.currentThread());
                return Transfers.copy(file, (WritableByteChannel) channel, copier);
            });
            Thread copying = senderThread.get(30, TimeUnit.SECONDS);
            assertThat(receiver.awaitPaused(30, TimeUnit.SECONDS))
                    .as("the peer read its bytes and stopped")
                    .isTrue();

            long cpuBefore = threads().cpuTimeNanos(copying);
            long wallBefore = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300)); // the stretch measured, not synchronisation
            long cpu = threads().cpuTimeNanos(copying) - cpuBefore;
            long wall = System.nanoTime() - wallBefore;
            receiver.end();

            ExecutionException ended = assertThrows(ExecutionException.class, () -> copy.get(30, TimeUnit.SECONDS));
            assertThat(ended.getCause())
                    .as("failure")
                    .isInstanceOf(TransferException.class)
                    .isNotInstanceOf(TransferTimeoutException.class);
            TransferException failure = (TransferException) ended.getCause();
            assertThat(failure.bytesTransferred())
                    .as("bytes transferred")
                    .isGreaterThanOrEqualTo(receiver.readBeforeReset())
                    .isLessThan(SIZE);
            assertThat(cpu)
                    .as("sender CPU time over %d ms of waiting", TimeUnit.NANOSECONDS.toMillis(wall))
                    .isLessThan(wall / 2);
        } finally {
            sender.shutdownNow();
            assertThat(sender.awaitTermination(30, TimeUnit.SECONDS))
                    .as("sender thread ended")
                    .isTrue();
        }
    }
}
