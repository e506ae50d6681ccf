package io.zerocopy.tests;

import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.RandomAccessFile;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link ThreadKindCrossingTest}'s one-carrier case, run with one carrier thread
 * and no spare: opens a transfer of a large file on the main (platform) thread, advances it on a
 * virtual thread into a blocking socket whose peer reads nothing, and then needs a second virtual
 * thread to run while the first waits, and an interrupt to end the first. Prints
 * {@code other ran} and {@code ended}; exits 1 when either does not happen within 10 s.
 */
public final class SingleCarrierMain {
    private SingleCarrierMain() {}

    public static void main(String[] args) throws Exception {
        String strategy = args.length > 0 ? args[0] : "";
        Path file = Files.createTempFile("one-carrier", ".bin");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(64L << 20);
        }
        TransferOptions options = strategy.isEmpty()
                ? TransferOptions.defaults()
                : TransferOptions.builder().strategy(strategy).build();
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel socket = receiver.connectChannel()) {
            Transfer transfer = Transfers.open(file, socket, options);
            AtomicLong moved = new AtomicLong();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread advancing = ThreadKindCrossingTest.advanceToTheEnd(ThreadKind.VIRTUAL, transfer, moved, outcome);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (moved.get() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // the first bytes fill the socket; the advance then waits for room
            }
            CompletableFuture<String> other = new CompletableFuture<>();
            ThreadKind.VIRTUAL
                    .newThread(() -> other.complete("other ran"), "other")
                    .start();
            System.out.println(other.get(10, TimeUnit.SECONDS));
            advancing.interrupt();
            Throwable failure = outcome.get(10, TimeUnit.SECONDS);
            System.out.println(failure != null ? "ended" : "completed");
            receiver.openGate();
        } finally {
            Files.delete(file);
        }
    }
}
