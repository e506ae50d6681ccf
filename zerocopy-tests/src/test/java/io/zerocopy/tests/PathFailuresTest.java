package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zerocopy.OpenDirectory;
import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A name that opens nothing fails every verb that opens it as {@code FileChannel.open} fails, and
 * {@link OpenDirectory#open} as {@code Files.newDirectoryStream} fails: the same exception class and
 * message, with native access (the native execution) and without, on every JDK. JDK 25's
 * {@code stat} calls a path through a regular file missing where its open says "Not a directory",
 * so an open that looks first must not pass on the look's words; and the JDK calls that refusal
 * of a directory a {@code NotDirectoryException}, where the kernel's words for it are those of any
 * other open.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PathFailuresTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"missing", "missing/inner", "file/inner", "file/inner/deeper", "file/../inner", "dir/missing"})
    void aNameThatOpensNothing_failsEveryVerbAsTheJdksOpen(String name) throws Exception {
        Files.writeString(dir.resolve("file"), "a file");
        Files.createDirectory(dir.resolve("dir"));
        Path path = dir.resolve(name);
        Throwable expected = catchThrowable(
                () -> FileChannel.open(path, StandardOpenOption.READ).close());
        assertThat(expected).as("the JDK's open").isInstanceOf(IOException.class);

        assertSameFailure(expected, () -> OpenFile.open(path).close());
        Throwable expectedOfADirectory =
                catchThrowable(() -> Files.newDirectoryStream(path).close());
        assertSameFailure(expectedOfADirectory, () -> OpenDirectory.open(path).close());
        try (OpenFileCache cache = OpenFileCache.create(4, Duration.ZERO)) {
            assertSameFailure(expected, () -> cache.open(path).close());
        }
        assertSameFailure(expected, () -> Transfers.copy(path, new ByteArrayOutputStream()));
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            assertSameFailure(expected, () -> Transfers.copy(path, (WritableByteChannel) channel));
        }
    }

    @Test
    void aFifo_isNoDirectory_refusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = TestFiles.fifo(dir.resolve("fifo"));
        ExecutorService opener = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "opens-a-fifo");
            thread.setDaemon(true);
            return thread;
        });
        Future<Throwable> refused = opener.submit(
                () -> catchThrowable(() -> OpenDirectory.open(fifo).close()));
        try {
            assertThat(refused.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(NotDirectoryException.class)
                    .hasMessage(fifo.toString());
        } finally {
            if (!refused.isDone()) {
                FileChannel.open(fifo, StandardOpenOption.WRITE).close(); // the writer it waits for: let it go
            }
            opener.shutdown();
        }
    }

    @Test
    void aUnixSocketsName_refusedAsNoFileByTheOpens_failsTheCopiesAsTheJdksOpen() throws Exception {
        Path socket = dir.resolve("sock");
        try (ServerSocketChannel listening =
                        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(socket));
                OpenFileCache cache = OpenFileCache.create(4, Duration.ZERO);
                OpenDirectory root = OpenDirectory.open(dir)) {
            List<ThrowingCall> opens = List.of(
                    () -> OpenFile.open(socket).close(),
                    () -> OpenFile.open(socket, LinkOption.NOFOLLOW_LINKS).close(),
                    () -> cache.open(socket).close(),
                    () -> root.openBeneath(List.of("sock")).close(),
                    () -> cache.openBeneath(root, List.of("sock")).close());
            for (ThrowingCall open : opens) {
                assertThat(catchThrowable(open::call))
                        .isExactlyInstanceOf(FileSystemException.class)
                        .hasMessage(socket + ": not a regular file or directory");
            }
            Throwable expected = catchThrowable(
                    () -> FileChannel.open(socket, StandardOpenOption.READ).close());
            assertThat(expected).as("the JDK's open").isInstanceOf(IOException.class);
            assertSameFailure(expected, () -> Transfers.copy(socket, new ByteArrayOutputStream()));
            try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                    SocketChannel channel = receiver.connectChannel()) {
                assertSameFailure(expected, () -> Transfers.copy(socket, (WritableByteChannel) channel));
                assertSameFailure(
                        expected, () -> Transfers.open(socket, channel).close());
            }
        }
    }

    private static void assertSameFailure(Throwable expected, ThrowingCall call) {
        Throwable failure = catchThrowable(call::call);
        assertThat(failure).as("the verb's failure").isNotNull();
        assertThat(failure.getClass()).as(failure.toString()).isEqualTo(expected.getClass());
        assertThat(failure).hasMessage(expected.getMessage());
    }

    private interface ThrowingCall {
        void call() throws Exception;
    }
}
