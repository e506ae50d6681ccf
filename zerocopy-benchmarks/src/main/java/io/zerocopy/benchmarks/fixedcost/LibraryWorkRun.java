package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.Transfers;
import io.zerocopy.benchmarks.Sinks;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The library's own work per transfer, with no socket to blur it: a 4 KiB slice of a file opened
 * once ({@code Transfers.copy(fc, 0, 4096, target)}) to a channel that drops what it is given, so
 * that the transfer is the checks, the choice, one {@code pread} and the bookkeeping. Prints the
 * calling thread's CPU nanoseconds per transfer: the least of {@code rounds} rounds of
 * {@code transfers} each, after two rounds of warm-up. Compare two builds by running their jars in
 * turn (docs/fixed-cost.md).
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.fixedcost.LibraryWorkRun [rounds] [transfers]}
 */
public final class LibraryWorkRun {
    private LibraryWorkRun() {}

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int transfers = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        WritableByteChannel drop = Sinks.discarding();
        Path file = Files.createTempFile("library-work", ".bin");
        try {
            Files.write(file, new byte[4096]);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                double least = Double.MAX_VALUE;
                for (int r = 0; r < rounds + 2; r++) {
                    long start = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < transfers; i++) {
                        Transfers.copy(channel, 0, 4096, drop);
                    }
                    double perTransfer = (threads.getCurrentThreadCpuTime() - start) / (double) transfers;
                    if (r >= 2) {
                        least = Math.min(least, perTransfer);
                    }
                }
                System.out.printf(
                        "Java %d: %.0f ns of CPU per transfer%n",
                        Runtime.version().feature(), least);
            }
        } finally {
            Files.delete(file);
        }
    }
}
