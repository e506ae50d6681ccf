package io.zerocopy.benchmarks;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run of sockets drained into files for {@link SpliceRun}: N loopback connections from
 * {@link MemorySenders}, each copied by {@code Transfers.copy} with a forced strategy into a new
 * file of {@code dir}, on a thread of its own.
 */
final class SpliceToFiles {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private SpliceToFiles() {}

    /** {GB/s, copying threads' CPU ms per GB, seconds}: N sockets drained into N files at once. */
    static double[] run(Path dir, int n, long each, String contender) throws Exception {
        TransferOptions options = TransferOptions.builder().strategy(contender).build();
        AtomicLong cpu = new AtomicLong();
        List<Thread> copyingThreads = new ArrayList<>();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(LOOPBACK, 0), n);
            InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
            long started = System.nanoTime();
            Thread senders = MemorySenders.daemon(() -> {
                try {
                    MemorySenders.send(address, n, each, false);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int i = 0; i < n; i++) {
                SocketChannel source = listener.accept();
                Path file = dir.resolve("f" + i);
                copyingThreads.add(MemorySenders.daemon(() -> {
                    long cpuStart = THREADS.getCurrentThreadCpuTime();
                    try (source;
                            FileChannel target = FileChannel.open(
                                    file,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE,
                                    StandardOpenOption.TRUNCATE_EXISTING)) {
                        if (Transfers.copy((ReadableByteChannel) source, target, options) != each) {
                            throw new IOException("short copy");
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    } finally {
                        cpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpuStart);
                    }
                }));
            }
            for (Thread t : copyingThreads) {
                t.join();
            }
            senders.join();
            double seconds = (System.nanoTime() - started) / 1e9;
            double gb = n * each / 1e9;
            return new double[] {gb / seconds, cpu.get() / 1e6 / gb, seconds};
        }
    }
}
