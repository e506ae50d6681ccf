import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

/**
 * JDK 20+'s tax on small sends: FileChannel.transferTo to a socket makes a failing copy_file_range
 * before its sendfile. This times the JDK's transferTo against a direct sendfile downcall (FFM), per
 * transfer of SIZE bytes from an open file, on a platform or a virtual thread, to a loopback peer
 * drained in this JVM or to HOST:PORT (a drain behind a veth pair). Java 22+, run from source:
 *
 *   java --enable-native-access=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
 *       --add-opens java.base/java.io=ALL-UNNAMED \
 *       zerocopy-benchmarks/sendfile-downcall/SendfileDowncall.java [ROUNDS] [BATCH] [HOST:PORT|loopback] SIZE...
 *
 * Each round runs every (size, thread kind, contender) once, in a new random order, BATCH
 * transfers each; prints medians of microseconds per transfer: wall, the sending thread's CPU (not
 * reported for a virtual thread) and the process's CPU (which includes the loopback drain thread),
 * and the downcall's ratios to transferTo. The first two rounds warm up.
 */
@SuppressWarnings("restricted")
public class SendfileDowncall {
    static final Linker LINKER = Linker.nativeLinker();
    static final StructLayout STATE = Linker.Option.captureStateLayout();
    static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    static final MethodHandle SENDFILE = LINKER.downcallHandle(LINKER.defaultLookup().find("sendfile").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG),
            Linker.Option.captureCallState("errno"));
    static final int EAGAIN = 11;

    static int fd(Object channel) throws ReflectiveOperationException {
        Class<?> c = channel.getClass();
        while (c != null) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals("fdVal")) {
                    f.setAccessible(true);
                    return f.getInt(channel);
                }
                if (f.getName().equals("fd") && f.getType() == FileDescriptor.class) {
                    f.setAccessible(true);
                    FileDescriptor d = (FileDescriptor) f.get(channel);
                    Field v = FileDescriptor.class.getDeclaredField("fd");
                    v.setAccessible(true);
                    return v.getInt(d);
                }
            }
            c = c.getSuperclass();
        }
        throw new IllegalStateException("no descriptor in " + channel);
    }

    interface Contender {
        void send(FileChannel file, int fileFd, SocketChannel socket, int socketFd, long size) throws IOException;
    }

    static final Contender TRANSFER_TO = (file, fileFd, socket, socketFd, size) -> {
        long done = 0;
        while (done < size) {
            long n = file.transferTo(done, size - done, socket);
            if (n == 0) {
                Thread.onSpinWait(); // a virtual thread's socket is non-blocking underneath: full
            }
            done += n;
        }
    };

    /** Per thread: errno and the offset the kernel writes. */
    static final ThreadLocal<MemorySegment[]> MEMORY = ThreadLocal.withInitial(() -> {
        Arena arena = Arena.ofAuto();
        return new MemorySegment[] {arena.allocate(STATE), arena.allocate(JAVA_LONG)};
    });

    static final Contender DOWNCALL = (file, fileFd, socket, socketFd, size) -> {
        MemorySegment[] m = MEMORY.get();
        m[1].set(JAVA_LONG, 0, 0L);
        long done = 0;
        while (done < size) {
            long n;
            try {
                n = (long) SENDFILE.invokeExact(m[0], socketFd, fileFd, m[1], size - done);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n < 0) {
                int errno = (int) ERRNO.get(m[0], 0L);
                if (errno != EAGAIN) {
                    throw new IOException("sendfile: errno " + errno);
                }
                Thread.onSpinWait();
                continue;
            }
            done += n;
        }
    };

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int batch = Integer.parseInt(args[1]);
        String peer = args[2];
        long[] sizes = Arrays.stream(args, 3, args.length).mapToLong(Long::parseLong).toArray();
        Path dir = Files.createTempDirectory("sendfile-downcall");
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
        ExecutorService platform = Executors.newSingleThreadExecutor();
        String[] kinds = {"platform", "virtual"};
        String[] names = {"transferTo", "downcall"};
        Contender[] contenders = {TRANSFER_TO, DOWNCALL};
        // results[size][kind][contender] = list of {wall µs, cpu µs}
        @SuppressWarnings("unchecked")
        List<double[]>[][][] results = new List[sizes.length][2][2];
        for (List<double[]>[][] a : results) for (List<double[]>[] b : a) for (int i = 0; i < 2; i++) b[i] = new ArrayList<>();
        Random random = new Random(28);
        for (int round = 0; round < rounds; round++) {
            List<int[]> cells = new ArrayList<>();
            for (int s = 0; s < sizes.length; s++) for (int k = 0; k < 2; k++) for (int c = 0; c < 2; c++) cells.add(new int[] {s, k, c});
            Collections.shuffle(cells, random);
            for (int[] cell : cells) {
                long size = sizes[cell[0]];
                Path path = dir.resolve(size + ".bin");
                if (!Files.exists(path)) {
                    byte[] bytes = new byte[(int) size];
                    random.nextBytes(bytes);
                    Files.write(path, bytes);
                }
                Contender contender = contenders[cell[2]];
                ExecutorService on = cell[1] == 0 ? platform : virtual;
                double[] r = on.submit(() -> run(peer, path, size, batch, contender)).get();
                if (round >= 2) {
                    results[cell[0]][cell[1]][cell[2]].add(r);
                }
            }
        }
        System.out.printf(Locale.ROOT, "peer %s, %d rounds (2 of warm-up) of %d transfers, %s%n", peer, rounds, batch,
                Runtime.version());
        System.out.println("size  thread    transferTo µs (thread cpu, process cpu)   downcall µs (thread cpu, process cpu)"
                + "   downcall/transferTo: wall, thread cpu, process cpu");
        for (int s = 0; s < sizes.length; s++) {
            for (int k = 0; k < 2; k++) {
                double[] t = medians(results[s][k][0]);
                double[] d = medians(results[s][k][1]);
                System.out.printf(Locale.ROOT, "%5d %-8s  %8.2f (%6.2f, %6.2f)   %8.2f (%6.2f, %6.2f)   %.3f, %.3f, %.3f%n",
                        sizes[s], kinds[k], t[0], t[1], t[2], d[0], d[1], d[2], d[0] / t[0], d[1] / t[1], d[2] / t[2]);
            }
        }
        virtual.shutdown();
        platform.shutdown();
    }

    static double[] medians(List<double[]> runs) {
        double[] m = new double[3];
        for (int i = 0; i < 3; i++) {
            int j = i;
            double[] sorted = runs.stream().mapToDouble(r -> r[j]).sorted().toArray();
            m[i] = sorted[sorted.length / 2];
        }
        return m;
    }

    /** One batch on a fresh connection: microseconds per transfer, wall and this thread's CPU. */
    static double[] run(String peer, Path path, long size, int batch, Contender contender) throws Exception {
        var threads = ManagementFactory.getThreadMXBean();
        var process = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
                Drained socket = new Drained(peer)) {
            int fileFd = fd(file);
            int socketFd = fd(socket.sender);
            contender.send(file, fileFd, socket.sender, socketFd, size); // connection warm
            long cpu0 = threads.getCurrentThreadCpuTime();
            long p0 = process.getProcessCpuTime();
            long t0 = System.nanoTime();
            for (int i = 0; i < batch; i++) {
                contender.send(file, fileFd, socket.sender, socketFd, size);
            }
            long t1 = System.nanoTime();
            long cpu1 = threads.getCurrentThreadCpuTime();
            long p1 = process.getProcessCpuTime();
            return new double[] {(t1 - t0) / 1e3 / batch, cpu1 < 0 ? Double.NaN : (cpu1 - cpu0) / 1e3 / batch,
                (p1 - p0) / 1e3 / batch};
        }
    }

    /** A connection to the peer: a drain thread in this JVM, or HOST:PORT that reads and discards. */
    static final class Drained implements AutoCloseable {
        final SocketChannel sender;

        Drained(String peer) throws IOException {
            if (peer.equals("loopback")) {
                try (ServerSocketChannel server = ServerSocketChannel.open()) {
                    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                    sender = SocketChannel.open(server.getLocalAddress());
                    SocketChannel receiver = server.accept();
                    Thread drain = new Thread(() -> {
                        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
                        try (receiver) {
                            while (receiver.read(buffer.clear()) >= 0) {
                                // discard
                            }
                        } catch (IOException e) {
                            // closed
                        }
                    });
                    drain.setDaemon(true);
                    drain.start();
                }
            } else {
                int colon = peer.lastIndexOf(':');
                sender = SocketChannel.open(new InetSocketAddress(peer.substring(0, colon),
                        Integer.parseInt(peer.substring(colon + 1))));
            }
            sender.write(ByteBuffer.allocate(0)); // on a virtual thread: non-blocking underneath from here
        }

        @Override
        public void close() throws IOException {
            sender.close();
        }
    }
}
