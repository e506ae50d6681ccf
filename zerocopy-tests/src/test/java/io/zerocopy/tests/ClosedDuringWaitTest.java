package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proxy-style copy between two non-blocking sockets whose source is closed by another thread (an
 * idle handler, say) while the engine waits on the target: the caller gets a
 * {@link TransferException} with the count and the listener hears of it, never a stray
 * {@code CancelledKeyException}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosedDuringWaitTest {

    @Test
    @SuppressWarnings("try") // targetPeer only has to stay open, unread, so the target's buffers fill
    void copy_sourceClosedWhileWaitingOnTarget() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            try (SocketChannel source = SocketChannel.open(server.getLocalAddress());
                    SocketChannel sourcePeer = server.accept();
                    SocketChannel target = SocketChannel.open(server.getLocalAddress());
                    SocketChannel targetPeer = server.accept()) { // never reads
                source.configureBlocking(false);
                target.configureBlocking(false);
                AtomicReference<TransferException> heard = new AtomicReference<>();
                TransferOptions options = TransferOptions.builder()
                        .stallTimeout(Duration.ofMinutes(5)) // the close, not the stall, must end it
                        .listener(new TransferListener() {
                            @Override
                            public void onFailure(TransferException failure) {
                                heard.set(failure);
                            }
                        })
                        .build();
                // Threads of their own: the common pool may have a single thread on a small machine,
                // and the writer must not queue behind the copy.
                ExecutorService threads = Executors.newFixedThreadPool(2);
                try {
                    run(threads, options, source, sourcePeer, target, heard);
                } finally {
                    threads.shutdownNow();
                    assertThat(threads.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
                }
            }
        }
    }

    private static void run(
            ExecutorService threads,
            TransferOptions options,
            SocketChannel source,
            SocketChannel sourcePeer,
            SocketChannel target,
            AtomicReference<TransferException> heard)
            throws Exception {
        Future<Long> copy = threads.submit(() -> Transfers.copy(source, target, options));

        awaitRegistered(source); // nothing to read yet: the engine waits on the source
        threads.submit(() -> {
            try {
                sourcePeer.write(ByteBuffer.allocate(32 << 20));
            } catch (IOException ignored) {
                // the test closes everything at the end
            }
        });
        awaitRegistered(target); // the target's buffers filled: the engine waits on the target
        source.close();

        ExecutionException e = assertThrows(ExecutionException.class, () -> copy.get(30, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(TransferException.class);
        TransferException transfer = (TransferException) e.getCause();
        assertThat(transfer.getCause()).isInstanceOfAny(AsynchronousCloseException.class, ClosedChannelException.class);
        assertThat(transfer.bytesTransferred()).isPositive();
        assertThat(heard.get()).isSameAs(transfer);
        assertThat(target.isOpen()).isTrue();
        assertThat(target.isRegistered()).as("the engine's selector is closed").isFalse();
    }

    /**
     * A {@code sendfile} blocked on a full blocking socket (the peer reads nothing) does not see
     * another thread's close on JDK 17; the Javadoc's way out, shutting the socket's output before
     * the close, fails it at once on every JDK, and the copy reports what it had moved.
     */
    @Test
    void copy_blockingSendfileOnFullSocket_endedByShutdownThenClose(@TempDir Path dir) throws Exception {
        Path file = TestFiles.sparse(dir.resolve("large"), 64L << 20, 1, 4096, 0);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            try (SocketChannel target = SocketChannel.open(server.getLocalAddress());
                    SocketChannel peer = server.accept(); // reads nothing
                    FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
                TransferOptions transferTo = TransferOptions.builder()
                        .strategy("transferTo")
                        .stallTimeout(Duration.ofMinutes(5)) // the close, not the stall, must end it
                        .build();
                ExecutorService thread = Executors.newSingleThreadExecutor();
                try {
                    Future<Long> copy =
                            thread.submit(() -> Transfers.copy(source, 0, source.size(), target, transferTo));
                    awaitQueued(peer); // the socket is full: the sendfile waits for the peer
                    target.shutdownOutput();
                    target.close();

                    ExecutionException e = assertThrows(ExecutionException.class, () -> copy.get(20, TimeUnit.SECONDS));
                    assertThat(e.getCause()).isInstanceOf(TransferException.class);
                    assertThat(((TransferException) e.getCause()).bytesTransferred())
                            .isLessThan(source.size());
                } finally {
                    thread.shutdownNow();
                    assertThat(thread.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
                }
            }
        }
    }

    /** Waits until bytes wait unread at {@code peer}, so that the sender's socket has filled. */
    private static void awaitQueued(SocketChannel peer) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (peer.socket().getInputStream().available() < 64 * 1024) {
            assertThat(System.nanoTime()).as("waiting for bytes at the peer").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval, not synchronisation
        }
    }

    private static void awaitRegistered(SelectableChannel channel) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!channel.isRegistered()) {
            assertThat(System.nanoTime())
                    .as("waiting for the engine to select on " + channel)
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval, not synchronisation
        }
    }
}
