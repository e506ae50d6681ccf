package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * Run by {@link ShortOfAddressSpaceTest}: lowers its own address-space limit ({@code prlimit
 * --as}) to what it maps now plus {@code args[2]} MiB, then copies a file larger than that into a
 * pipe, which the strategy table sends from mapped windows of 64 MiB. Prints {@code result ok} or
 * the failure.
 */
final class ShortOfAddressSpaceMain {
    private ShortOfAddressSpaceMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        byte[] block = TestFiles.randomBytes(1 << 20, Long.parseLong(args[1]));
        Path file = dir.resolve("source");
        CRC32C expected = new CRC32C();
        try (var out = Files.newOutputStream(file)) {
            for (int i = 0; i < 96; i++) {
                block[0] = (byte) i; // no two mebibytes alike, so a window out of place is seen
                out.write(block);
                expected.update(block);
            }
        }
        Transfers.copy(file, dir.resolve("warm-up")); // the library's classes loaded before the limit
        Files.delete(dir.resolve("warm-up"));

        Pipe pipe = Pipe.open();
        CRC32C received = new CRC32C();
        long[] count = new long[1];
        Thread reader = new Thread(() -> {
            ByteBuffer into = ByteBuffer.allocate(1 << 16);
            try {
                for (int n = pipe.source().read(into); n >= 0; n = pipe.source().read(into)) {
                    received.update(into.flip());
                    count[0] += n;
                    into.clear();
                }
            } catch (Exception e) {
                e.printStackTrace();
            }
        });
        reader.setDaemon(true); // a failed copy must not leave the JVM waiting for it
        reader.start();

        long mappedNow = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmSize:")) {
                mappedNow = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        long limit = mappedNow + Long.parseLong(args[2]) * (1 << 20);
        Process prlimit = new ProcessBuilder(
                        "prlimit",
                        "--pid",
                        Long.toString(ProcessHandle.current().pid()),
                        "--as=" + limit)
                .inheritIO()
                .start();
        if (!prlimit.waitFor(30, TimeUnit.SECONDS) || prlimit.exitValue() != 0) {
            throw new IllegalStateException("prlimit failed");
        }

        String outcome;
        try (Pipe.SinkChannel sink = pipe.sink()) {
            long sent = Transfers.copy(file, sink);
            sink.close();
            reader.join(TimeUnit.SECONDS.toMillis(60));
            outcome = sent == 96L << 20 && count[0] == sent && received.getValue() == expected.getValue()
                    ? "ok"
                    : "wrong bytes: " + sent + " sent, " + count[0] + " received";
        } catch (Exception e) {
            outcome = "failed: " + e;
        }
        System.out.println("result " + outcome);
        System.out.println("done");
    }
}
