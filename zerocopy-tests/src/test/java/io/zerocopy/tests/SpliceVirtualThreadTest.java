package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * splice forced on a virtual thread between blocking sockets, which the JDK runs non-blocking
 * underneath: a source with nothing to read and a full target park the virtual thread in the
 * socket's own read or write (its state is {@code WAITING}, with no timeout), never block its
 * carrier in {@code splice} ({@code RUNNABLE}) and never poll ({@code TIMED_WAITING}), also when
 * the transfer is the sockets' first I/O. Bytes arrive exactly; an interrupt while parked ends the
 * transfer with {@code ClosedByInterruptException}. Java 22 and later, in the splice execution.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpliceVirtualThreadTest {
    private static final int SIZE = 4 << 20;
    private static final int LARGE = 48 << 20;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private final AtomicReference<Thread> copyingThread = new AtomicReference<>();
    private ThreadFactory virtual;
    private byte[] data;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Runtime.version().feature() >= 22, "splice needs Java 22 or later; this is " + Runtime.version());
        virtual = (ThreadFactory) Class.forName("java.lang.Thread$Builder")
                .getMethod("factory")
                .invoke(Thread.class.getMethod("ofVirtual").invoke(null));
        data = TestFiles.randomBytes(SIZE, 22);
    }

    @Test
    void copy_sourceIdle_parksInItsReadAndRelaysEveryByte() throws Exception {
        try (Pair in = Pair.open();
                Pair out = Pair.open()) {
            CompletableFuture<TransferResult> relay = relay(in.far, out.near, SIZE);

            awaitParked(); // nothing has been sent yet: the source is empty
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> in.writeAll(data));
            byte[] received = out.readExactly(SIZE);

            TransferResult result = relay.get(20, TimeUnit.SECONDS);
            sent.get(20, TimeUnit.SECONDS);
            assertThat(result.bytesTransferred()).isEqualTo(SIZE);
            assertThat(result.strategy()).isEqualTo("splice");
            assertThat(result.reason()).contains("virtual thread", "parks the thread");
            assertThat(Arrays.equals(received, data))
                    .as("relayed bytes equal the sent ones")
                    .isTrue();
            assertThat(in.far.isOpen() && out.near.isOpen())
                    .as("the caller's sockets stay open")
                    .isTrue();
        }
    }

    @Test
    void copy_targetFull_parksInItsWriteAndRelaysEveryByte() throws Exception {
        // more than loopback's socket buffers and the pipe hold together, so that the target fills
        byte[] large = TestFiles.randomBytes(LARGE, 23);
        try (Pair in = Pair.open();
                Pair out = Pair.open()) {
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> in.writeAll(large));
            CompletableFuture<TransferResult> relay = relay(in.far, out.near, LARGE);

            awaitParked(); // the target's peer has not read: it fills
            byte[] received = out.readExactly(LARGE);

            assertThat(relay.get(20, TimeUnit.SECONDS).bytesTransferred()).isEqualTo(LARGE);
            sent.get(20, TimeUnit.SECONDS);
            assertThat(Arrays.equals(received, large))
                    .as("relayed bytes equal the sent ones")
                    .isTrue();
        }
    }

    @Test
    void copy_interruptedWhileParked_failsWithClosedByInterrupt() throws Exception {
        try (Pair in = Pair.open();
                Pair out = Pair.open()) {
            CompletableFuture<TransferResult> relay = relay(in.far, out.near, SIZE);

            awaitParked();
            copyingThread.get().interrupt();

            ExecutionException e = assertThrows(ExecutionException.class, () -> relay.get(20, TimeUnit.SECONDS));
            assertThat(e.getCause())
                    .isInstanceOf(TransferException.class)
                    .hasCauseInstanceOf(ClosedByInterruptException.class);
            assertThat(((TransferException) e.getCause()).bytesTransferred()).isZero();
        }
    }

    /** Relays exactly {@code count} bytes on a new virtual thread, whose first I/O on either socket this is. */
    private CompletableFuture<TransferResult> relay(SocketChannel source, SocketChannel target, long count) {
        CompletableFuture<TransferResult> result = new CompletableFuture<>();
        AtomicReference<TransferResult> done = new AtomicReference<>();
        TransferOptions splice = TransferOptions.builder()
                .strategy("splice")
                .listener(new TransferListener() {
                    @Override
                    public void onComplete(TransferResult r) {
                        done.set(r);
                    }
                })
                .build();
        Thread t = virtual.newThread(() -> {
            try {
                Transfers.copy((ReadableByteChannel) source, count, target, splice);
                result.complete(done.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        copyingThread.set(t);
        t.start();
        return result;
    }

    /** Waits until the relaying virtual thread is parked without a timeout (three looks in a row, 20 ms apart). */
    private void awaitParked() {
        long start = System.nanoTime();
        Thread.State state = null;
        int inARow = 0;
        while (System.nanoTime() - start < DEADLINE_NANOS) {
            state = copyingThread.get().getState();
            inARow = state == Thread.State.WAITING ? inARow + 1 : 0;
            if (inARow == 3) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new AssertionError("the relaying virtual thread never parked without a timeout; last state: " + state);
    }

    /** A connected loopback pair: {@code near} is handed to the library, {@code far} is the test's end. */
    private static final class Pair implements AutoCloseable {
        final SocketChannel near;
        final SocketChannel far;

        private Pair(SocketChannel near, SocketChannel far) {
            this.near = near;
            this.far = far;
        }

        static Pair open() throws IOException {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel near = SocketChannel.open(server.getLocalAddress());
                return new Pair(near, server.accept());
            }
        }

        /** Sends from {@code near}, for a pair whose {@code far} end is the library's source. */
        void writeAll(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            try {
                while (b.hasRemaining()) {
                    near.write(b);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Receives at {@code far}, for a pair whose {@code near} end is the library's target. */
        byte[] readExactly(int n) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining()) {
                if (far.read(b) < 0) {
                    break;
                }
            }
            return Arrays.copyOf(b.array(), b.position());
        }

        @Override
        public void close() throws IOException {
            near.close();
            far.close();
        }
    }
}
