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
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
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
