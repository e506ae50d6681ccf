package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.Transfers;
import io.zerocopy.benchmarks.Median;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a process's first {@code Transfers.copy(Path, socket)} of a 4 KiB file costs: class loading,
 * the selection table, and with native access the binding of the system calls it makes. Each
 * round starts one JVM per build and per set of flags (without, then with the native flags), the
 * order of the builds rotating; each JVM times its first copy alone and exits. Prints the median
 * per build and flags.
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.fixedcost.FirstTransferRun ROUNDS
 * LABEL=JAR...}: each JAR a benchmarks jar (or a core jar with this one after it on the class
 * path), whose classes come first for that build. Needs Java 22+ for the native row.
 */
public final class FirstTransferRun {
    private static final List<String> NATIVE_FLAGS =
            List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED");

    private FirstTransferRun() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("child")) {
            System.out.println(firstCopyNanos());
            return;
        }
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: ROUNDS LABEL=JAR...");
        }
        int rounds = Integer.parseInt(args[0]);
        int builds = args.length - 1;
        String java = ProcessHandle.current().info().command().orElseThrow();
        String ours = FirstTransferRun.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath();
        double[][][] millis = new double[builds][2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < builds; k++) {
                int b = (r + k) % builds;
                String jar = args[1 + b].substring(args[1 + b].indexOf('=') + 1);
                for (int flags = 0; flags < 2; flags++) {
                    List<String> command = new ArrayList<>(List.of(java));
                    if (flags == 1) {
                        command.addAll(NATIVE_FLAGS);
                    }
                    command.addAll(List.of("-cp", jar + ":" + ours, FirstTransferRun.class.getName(), "child"));
                    millis[b][flags][r] = child(command) / 1e6;
                }
            }
        }
        System.out.println("| build | first copy, ms | with native access, ms |");
        System.out.println("|---|---:|---:|");
        for (int b = 0; b < builds; b++) {
            System.out.printf(
                    "| %s | %.1f | %.1f |%n",
                    args[1 + b].substring(0, args[1 + b].indexOf('=')),
                    Median.of(millis[b][0]),
                    Median.of(millis[b][1]));
        }
    }

    private static long child(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(process.getInputStream().readAllBytes()).trim();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("the child JVM failed: " + command + ": " + out);
        }
        return Long.parseLong(out);
    }

    /** The first copy of this JVM, of a 4 KiB file into a loopback socket whose buffer holds it. */
    private static long firstCopyNanos() throws IOException {
        Path file = Files.createTempFile("first-transfer", ".bin");
        try (ServerSocketChannel server =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept()) {
            Files.write(file, new byte[4096]);
            long start = System.nanoTime();
            Transfers.copy(file, client);
            return System.nanoTime() - start;
        } finally {
            Files.delete(file);
        }
    }
}
