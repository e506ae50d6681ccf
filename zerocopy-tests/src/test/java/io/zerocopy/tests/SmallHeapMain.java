package io.zerocopy.tests;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run by {@link SmallHeapTest} in a JVM of its own with a small heap: sends a sparse file of
 * 4 GiB + 1 bytes to a loopback receiver with the default selection, mmap and the buffered strategy,
 * and checks every byte by hash. Prints one line per transfer; any failure ends it with an exception
 * (a non-zero exit).
 */
final class SmallHeapMain {
    static final long SIZE = (1L << 32) + 1;

    private SmallHeapMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        Path file = TestFiles.sparse(
                dir.resolve("sparse-4g"), SIZE, seed, 4096 + 7, 0, (1L << 31) - 100, (1L << 32) - 100, SIZE - 1);
        try {
            long expected = TestFiles.crc32c(file);
            for (String strategy : new String[] {"auto", "mmap", "buffered"}) {
                TransferOptions.Builder options = TransferOptions.builder();
                if (!strategy.equals("auto")) {
                    options.strategy(strategy);
                }
                try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
                    long sent;
                    try (SocketChannel channel = receiver.connectChannel()) {
                        sent = Transfers.copy(file, (WritableByteChannel) channel, options.build());
                    }
                    LoopbackReceiver.Received received = receiver.received();
                    if (sent != SIZE || received.bytes() != SIZE || received.crc32c() != expected) {
                        throw new AssertionError(
                                strategy + ": sent " + sent + ", received " + received.bytes() + " bytes with CRC32C "
                                        + received.crc32c() + ", expected " + SIZE + " with " + expected);
                    }
                }
                System.out.println("ok " + strategy + " " + SIZE + " max heap "
                        + Runtime.getRuntime().maxMemory());
            }
        } finally {
            Files.delete(file);
        }
    }
}
