package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A platform thread interrupted inside a blocking {@code sendfile}, a call only platform threads
 * make (on a virtual thread the library writes a blocking socket through the socket's own parking
 * write instead; {@link InterruptTest} covers both kinds between and inside calls).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptedSendfileTest {
    private static final long SEED = Seeds.announce(InterruptedSendfileTest.class);

    private static final int SIZE = 8 << 20;

    @TempDir
    static Path dir;

    private static Path file;

    @BeforeAll
    static void createFile() throws Exception {
        file = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(SIZE, SEED));
    }

    /**
     * Pins what {@link io.zerocopy.TransferOptions} documents: after {@link ClosedByInterruptException},
     * {@code bytesTransferred()} is a lower bound. A blocking {@code sendfile} asked for the whole
     * file is interrupted inside the call, having already handed the kernel what the socket buffers
     * hold; the JDK reports no count for the cut call, so the peer gets at least as much as counted
     * (here more).
     */
    @Test
    void copy_interruptedInsideBlockingSendfile_countIsALowerBound() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        TransferOptions copier =
                TransferOptions.builder().strategy("transferTo").build();
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER)) {
            TransferException failure;
            try (SocketChannel channel = receiver.connectChannel()) {
                CompletableFuture<Throwable> outcome = new CompletableFuture<>();
                Thread sender = new Thread(
                        () -> outcome.complete(
                                catchThrowable(() -> Transfers.copy(file, (WritableByteChannel) channel, copier))),
                        "sendfile-sender");
                sender.start();
                try {
                    // Inside the native transferTo0 (FileChannelImpl on 17, the dispatcher on 21+).
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!inNativeTransfer(threads, sender)) {
                        assertThat(System.nanoTime())
                                .as("the sender enters sendfile")
                                .isLessThan(deadline);
                        // polling interval, not synchronisation
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    sender.interrupt();
                    Throwable thrown = outcome.get(30, TimeUnit.SECONDS);
                    assertThat(thrown).as("failure").isInstanceOf(TransferException.class);
                    failure = (TransferException) thrown;
                } finally {
                    sender.interrupt();
                    sender.join(TimeUnit.SECONDS.toMillis(30));
                }
                // The JDK closes the interrupted call's own channels, as Transfers documents: the file
                // the library opened, and from JDK 25 (not 17) the caller's socket too.
                assertThat(failure.getCause()).as("cause").isInstanceOf(ClosedByInterruptException.class);
                int jdk = Runtime.version().feature();
                if (jdk == 17 || jdk >= 25) {
                    assertThat(channel.isOpen())
                            .as("the socket open after the interrupt, JDK " + jdk)
                            .isEqualTo(jdk == 17);
                }
            }
            receiver.openGate();
            long received = receiver.received().bytes();
            System.out.println(
                    "interrupted sendfile: counted " + failure.bytesTransferred() + ", the peer received " + received);
            assertThat(failure.bytesTransferred())
                    .as("bytes counted: a lower bound of what the peer received")
                    .isLessThanOrEqualTo(received);
            assertThat(received).as("bytes the peer received").isPositive().isLessThan(SIZE);
        }
    }

    private static boolean inNativeTransfer(ThreadMXBean threads, Thread thread) {
        ThreadInfo info = threads.getThreadInfo(thread.getId(), 1);
        return info != null
                && info.getStackTrace().length > 0
                && info.getStackTrace()[0].getMethodName().equals("transferTo0");
    }
}
