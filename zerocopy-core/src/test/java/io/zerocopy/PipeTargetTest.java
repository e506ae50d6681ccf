package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A blocking JDK pipe as the target: another thread's close of it ends a copy waiting for room, as
 * it ends the pipe's own write. Before JDK 25 {@code transferTo} into a pipe is a {@code sendfile}
 * that the close does not reach, so the table does not choose it there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PipeTargetTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"path", "slice", "region"})
    void copy_intoAFullPipeClosedByAnotherThread_ends(String verb) throws Exception {
        Path path = Files.write(dir.resolve("source"), new byte[4 << 20]); // far more than a pipe holds
        Pipe pipe = Pipe.open();
        Pipe.SinkChannel sink = pipe.sink(); // closed by the test, mid-copy
        try (Pipe.SourceChannel unread = pipe.source();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            FutureTask<Long> copy = new FutureTask<>(() -> switch (verb) {
                case "path" -> Transfers.copy(path, (WritableByteChannel) sink);
                case "slice" -> Transfers.copy(file, 0, file.size(), sink);
                default -> Transfers.copy(FileRegion.of(file, 0, file.size()), sink);
            });
            Thread copying = new Thread(copy, "copying into a pipe");
            copying.start();
            awaitWaitingInTheKernel(copying);
            sink.close();

            assertThatThrownBy(() -> copy.get(10, TimeUnit.SECONDS)) // a TimeoutException: still blocked
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TransferException.class);
        } finally {
            sink.close();
        }
    }

    /**
     * A file the size of which calls for mapped windows into a pipe, but which refuses to be mapped
     * (a sysfs file: the kernel's BTF): the table passes mmap over, and every byte arrives.
     */
    @Test
    void copy_aFileThatRefusesMapping_intoAPipe_sendsEveryByte() throws Exception {
        Path path = Path.of("/sys/kernel/btf/vmlinux");
        assumeTrue(Files.isReadable(path) && Files.size(path) >= Selection.MMAP_MIN_BYTES, "needs a large sysfs file");
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            assumeTrue(
                    catchThrowable(() -> file.map(FileChannel.MapMode.READ_ONLY, 0, 1)) instanceof IOException,
                    "needs a file that refuses mmap");
        }
        byte[] expected = Files.readAllBytes(path);
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source()) {
            FutureTask<byte[]> reading = new FutureTask<>(() -> {
                ByteArrayOutputStream read = new ByteArrayOutputStream();
                Channels.newInputStream(source).transferTo(read);
                return read.toByteArray();
            });
            new Thread(reading, "reading the pipe").start();
            long sent;
            try (Pipe.SinkChannel sink = pipe.sink()) {
                sent = Transfers.copy(path, (WritableByteChannel) sink);
            }
            assertThat(sent).isEqualTo(expected.length);
            assertThat(reading.get(20, TimeUnit.SECONDS)).isEqualTo(expected);
        }
    }

    /** Polls {@code thread} until its innermost frame is a JDK native write or sendfile. */
    private static void awaitWaitingInTheKernel(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            StackTraceElement[] stack = thread.getStackTrace();
            if (stack.length > 0
                    && stack[0].isNativeMethod()
                    && stack[0].getClassName().startsWith("sun.nio.ch.")
                    && stack[0].getMethodName().matches("(?i).*(write|transfer).*")) {
                return; // not a read or a map of the set-up, which the close would precede
            }
            assertThat(thread.isAlive())
                    .as("the copy returned before it filled the pipe")
                    .isTrue();
            Thread.onSpinWait();
        }
        throw new AssertionError("the copy never waited: " + Arrays.toString(thread.getStackTrace()));
    }
}
