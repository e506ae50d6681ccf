package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zerocopy.TransferException;
import io.zerocopy.Transfers;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FIFO named as a copy's source ({@code cmd > fifo &}, then {@code Transfers.copy(fifo, socket)})
 * is read to its end as {@code FileChannel.open} and its reads would: whether its writer was waiting
 * before the copy, came after it, or wrote nothing; and an interrupt ends a copy waiting on it. In
 * both executions: with native access the file is opened natively, without a wait for a writer.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FifoSourceTest {
    private static final long SEED = Seeds.announce(FifoSourceTest.class);

    @TempDir
    Path dir;

    /**
     * The writer waits in its open for a reader, as a shell's redirection does. The copy's open lets
     * it go: it may write, close and be gone before anything else is opened. Several rounds, since
     * what a fault would lose to is that race.
     */
    @Test
    void aWriterWaitingBeforeTheCopy_isReadToItsEnd() throws Exception {
        for (int round = 0; round < 5; round++) {
            Path fifo = TestFiles.fifo(dir.resolve("waiting-" + round));
            byte[] content = TestFiles.randomBytes(9216 + round, SEED + round);
            Thread[] writer = new Thread[1];
            CompletableFuture<Void> written = writeInto(fifo, content, writer);
            awaitWaitingInOpen(writer[0]);

            assertThat(copyToASocket(fifo, content)).as("round " + round).isEqualTo(content.length);
            written.get(10, TimeUnit.SECONDS);
        }
    }

    /** No writer yet: the copy waits for one, as the JDK's open does, and reads what it writes. */
    @Test
    void aWriterAfterTheCopyStarted_isWaitedForAndRead() throws Exception {
        Path fifo = TestFiles.fifo(dir.resolve("later"));
        byte[] content = TestFiles.randomBytes(70_000, SEED);
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            CompletableFuture<Long> copied = copyOnAThreadOfItsOwn(fifo, channel, new Thread[1]);

            writeInto(fifo, content, new Thread[1]).get(30, TimeUnit.SECONDS);

            assertThat(copied.get(30, TimeUnit.SECONDS)).isEqualTo(content.length);
            channel.close();
            assertThat(receiver.received())
                    .isEqualTo(new LoopbackReceiver.Received(content.length, TestFiles.crc32c(content)));
        }
    }

    /** A writer that writes nothing: the copy ends with nothing sent. */
    @Test
    void aWriterThatWritesNothing_endsTheCopyEmpty() throws Exception {
        Path fifo = TestFiles.fifo(dir.resolve("empty"));
        Thread[] writer = new Thread[1];
        CompletableFuture<Void> written = writeInto(fifo, new byte[0], writer);
        awaitWaitingInOpen(writer[0]);

        assertThat(copyToASocket(fifo, new byte[0])).isZero();
        written.get(10, TimeUnit.SECONDS);
    }

    /** A writer that stays and writes nothing: an interrupt ends the waiting copy, as it ends the JDK's read. */
    @Test
    void anInterrupt_endsACopyWaitingOnASilentWriter() throws Exception {
        Path fifo = TestFiles.fifo(dir.resolve("silent"));
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            Thread[] copier = new Thread[1];
            CompletableFuture<Long> copied = copyOnAThreadOfItsOwn(fifo, channel, copier);
            try (FileChannel silent = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
                silent.write(ByteBuffer.wrap(new byte[] {42})); // the copy has opened and started: it reads this

                copier[0].interrupt();

                Throwable failure = catchThrowable(() -> copied.get(5, TimeUnit.SECONDS));
                assertThat(failure).isInstanceOf(ExecutionException.class);
                Throwable cause = failure.getCause();
                // as Transfers says: in a channel's call or between two, once it started; bare before
                assertThat(cause instanceof TransferException ? cause.getCause() : cause)
                        .as("what ended the copy: " + cause)
                        .isInstanceOfAny(ClosedByInterruptException.class, InterruptedIOException.class);
            }
        }
    }

    /** Copies {@code fifo} into a loopback socket and checks what the peer got against {@code content}; the count copied. */
    private static long copyToASocket(Path fifo, byte[] content) throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            long copied;
            try (SocketChannel channel = receiver.connectChannel()) {
                copied = copyOnAThreadOfItsOwn(fifo, channel, new Thread[1]).get(30, TimeUnit.SECONDS);
            }
            assertThat(receiver.received())
                    .isEqualTo(new LoopbackReceiver.Received(content.length, TestFiles.crc32c(content)));
            return copied;
        }
    }

    /** {@code Transfers.copy(fifo, channel)} on a platform thread, left in {@code thread[0]}; a future of its count. */
    private static CompletableFuture<Long> copyOnAThreadOfItsOwn(Path fifo, SocketChannel channel, Thread[] thread) {
        CompletableFuture<Long> copied = new CompletableFuture<>();
        thread[0] = new Thread(() -> {
            try {
                copied.complete(Transfers.copy(fifo, (WritableByteChannel) channel));
            } catch (Throwable t) {
                copied.completeExceptionally(t);
            }
        });
        thread[0].setDaemon(true);
        thread[0].start();
        return copied;
    }

    /** Opens {@code fifo} for writing on a thread of its own (left in {@code thread[0]}), writes {@code content}, closes. */
    private static CompletableFuture<Void> writeInto(Path fifo, byte[] content, Thread[] thread) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        thread[0] = new Thread(() -> {
            try (FileChannel out = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(content);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                written.complete(null);
            } catch (Throwable t) {
                written.completeExceptionally(t);
            }
        });
        thread[0].setDaemon(true);
        thread[0].start();
        return written;
    }

    /** Polls until {@code writer} is in the JDK's native open of the FIFO, where it waits for a reader. */
    private static void awaitWaitingInOpen(Thread writer) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            StackTraceElement[] stack = writer.getStackTrace();
            if (stack.length > 0
                    && stack[0].isNativeMethod()
                    && stack[0].getMethodName().startsWith("open")) {
                return;
            }
            assertThat(System.nanoTime())
                    .as("the writer in its open; its stack: " + Arrays.toString(stack))
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
