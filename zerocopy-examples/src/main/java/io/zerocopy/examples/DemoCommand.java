package io.zerocopy.examples;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The library's own demo: sends a generated file to a receiver on 127.0.0.1, once with the
 * library's own choice and once with each built-in file strategy forced, and prints size, strategy,
 * throughput and whether the receiver's checksum matched.
 *
 * <p>Usage: {@code java -jar zerocopy-examples.jar demo [--size-mib N]}
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Sends a generated file to a receiver on 127.0.0.1 with the library's own choice and with "
                    + "each strategy forced; prints strategy, throughput and whether the checksum matched."
        })
final class DemoCommand implements Callable<Integer> {

    /** The most MiB whose bytes fit a long. */
    static final long MAX_MIB = Long.MAX_VALUE >> 20;

    @Spec
    CommandSpec spec;

    @Option(names = "--size-mib", paramLabel = "N", description = "File size in MiB (default: ${DEFAULT-VALUE}).")
    long mib = 256;

    @Override
    public Integer call() throws Exception {
        if (mib < 1 || mib > MAX_MIB) {
            throw new ParameterException(
                    spec.commandLine(), "--size-mib: " + mib + " (expected: 1 to " + MAX_MIB + ")");
        }
        // deleted on Ctrl-C too
        try (TemporaryFiles temporary = new TemporaryFiles()) {
            Path file = temporary.directory("zerocopy-demo").resolve("demo.bin");
            long crc = GeneratedFile.create(file, mib << 20, 42);
            System.out.printf(
                    Locale.ROOT,
                    "zerocopy demo: %d MiB file to 127.0.0.1, Java %s on %s %s%n",
                    mib,
                    Runtime.version(),
                    System.getProperty("os.name"),
                    System.getProperty("os.version"));
            System.out.printf(
                    Locale.ROOT, "%-10s %-12s %12s %10s %9s  %s%n", "asked", "ran", "bytes", "ms", "GB/s", "checksum");
            for (String strategy : new String[] {null, "transferTo", "mmap", "buffered"}) {
                send(file, crc, strategy);
            }
        }
        return 0;
    }

    private static void send(Path file, long expectedCrc, String strategy) throws IOException, InterruptedException {
        LastResult result = new LastResult();
        TransferOptions options =
                TransferOptions.builder().strategy(strategy).listener(result).build();
        try (LoopbackReceiver receiver = new LoopbackReceiver()) {
            var received = receiver.receiveOne(true);
            long start = System.nanoTime();
            try (SocketChannel socket = SocketChannel.open(receiver.address())) {
                Transfers.copy(file, socket, options);
            }
            LoopbackReceiver.Received r = received.get();
            double seconds = (r.endNanos - start) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "%-10s %-12s %12d %10.1f %9.2f  %s%n",
                    strategy == null ? "auto" : strategy,
                    result.get().strategy(),
                    r.bytes,
                    seconds * 1e3,
                    r.bytes / seconds / 1e9,
                    r.crc == expectedCrc ? "ok" : "MISMATCH");
            if (strategy == null) {
                System.out.println("           why: " + result.get().reason());
            }
        } catch (ExecutionException e) {
            throw new IOException("receiver failed", e.getCause());
        }
    }
}
