package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@code NativePromisesTest}'s FIFO on one carrier, run with a scheduler of one
 * carrier and no more, given two FIFOs, the second for a warm-up on platform threads: a virtual thread copies the FIFO given into a pipe while no writer has come;
 * once it waits, another virtual thread writes 5,000 bytes into the FIFO, which it can only do if the
 * first left the carrier free. Prints {@code copied N}, {@code NEVER-WAITED} (the copy held its
 * carrier) or {@code STUCK}.
 */
public final class FifoOneCarrierMain {
    private FifoOneCarrierMain() {}

    public static void main(String[] args) throws Exception {
        Path fifo = Path.of(args[0]);
        Pipe pipe = Pipe.open();
        Thread drain = new Thread(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            try {
                while (pipe.source().read(buffer.clear()) >= 0) {
                    // the copy's bytes, counted by its result
                }
            } catch (Exception e) {
                // the sink closed
            }
        });
        drain.setDaemon(true);
        drain.start();
        warmUp(Path.of(args[1]), pipe); // every class loaded: the one carrier's thread waits for nothing else

        CompletableFuture<Long> copied = new CompletableFuture<>();
        Thread copier = ThreadKind.VIRTUAL.newThread(
                () -> {
                    try {
                        copied.complete(Transfers.copy(fifo, pipe.sink()));
                    } catch (Throwable t) {
                        copied.completeExceptionally(t);
                    }
                },
                "copier");
        copier.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (copier.getState() != Thread.State.TIMED_WAITING && copier.getState() != Thread.State.WAITING) {
            if (System.nanoTime() > deadline || copied.isDone()) {
                System.out.println("NEVER-WAITED " + copier.getState() + " " + copied);
                System.exit(0);
            }
            Thread.onSpinWait();
        }
        ThreadKind.VIRTUAL
                .newThread(
                        () -> {
                            try (FileChannel out = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
                                out.write(ByteBuffer.wrap(new byte[5000]));
                            } catch (Exception e) {
                                copied.completeExceptionally(e);
                            }
                        },
                        "writer")
                .start();
        try {
            System.out.println("copied " + copied.get(30, TimeUnit.SECONDS));
        } catch (java.util.concurrent.TimeoutException e) {
            System.out.println("STUCK");
        }
        System.exit(0);
    }

    /** One copy of {@code fifo}, and one write into it, on platform threads. */
    private static void warmUp(Path fifo, Pipe pipe) throws Exception {
        Thread writer = new Thread(() -> {
            try (FileChannel out = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap(new byte[10]));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        Transfers.copy(fifo, pipe.sink());
        writer.join();
    }
}
