package io.zerocopy.examples;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code compare}'s timing harness: every {@link CompareMethod} sends every file to a {@link Server}
 * on 127.0.0.1, several runs each, in an order that rotates with the run and the size, so that a
 * slow moment of a shared machine falls on every method alike; before that, unless told not to,
 * one untimed round at one size warms every method up. A time runs from just before the client
 * connects until the server has seen end of stream.
 */
final class InterleavedRuns {
    /** Told of every send, for progress and the runs CSV. */
    @FunctionalInterface
    interface Listener {
        /**
         * One send finished.
         *
         * @param run the run, from 1; 0 for the warm-up, whose time and strategy mean nothing
         */
        void sent(long size, int run, CompareMethod method, String strategy, double ms) throws IOException;
    }

    /** The warm-up's size limit: long enough to warm every path, cheap. */
    private static final long WARM_UP_LARGEST = 64L << 20;

    private final List<Long> sizes;
    private final List<Path> files;
    private final int runs;
    private final boolean warmUp;
    private final boolean noDelay;

    /**
     * @param files one per size, of that size
     * @param noDelay TCP_NODELAY on the sending socket
     */
    InterleavedRuns(List<Long> sizes, List<Path> files, int runs, boolean warmUp, boolean noDelay) {
        this.sizes = sizes;
        this.files = files;
        this.runs = runs;
        this.warmUp = warmUp;
        this.noDelay = noDelay;
    }

    /** How many sends {@link #run} makes, warm-up included. */
    long sends() {
        int methods = CompareMethod.values().length;
        return (long) sizes.size() * methods * runs + (warmUp ? methods : 0);
    }

    /** Times every send and returns each size's medians, in the order of the sizes. */
    List<ComparisonRow> run(Listener listener) throws IOException, InterruptedException {
        CompareMethod[] methods = CompareMethod.values();
        double[][][] ms = new double[sizes.size()][methods.length][runs];
        String[] autoStrategy = new String[sizes.size()];
        BlockingQueue<Server.Connection> arrived = new LinkedBlockingQueue<>();
        try (Server server = new Server(InetAddress.getLoopbackAddress(), 0, false, arrived::add)) {
            server.start();
            InetSocketAddress address = server.address();
            LastResult last = new LastResult();
            Map<CompareMethod, TransferOptions> options = new EnumMap<>(CompareMethod.class);
            for (CompareMethod m : methods) {
                options.put(m, m.options(last));
            }
            if (warmUp) {
                int w = warmUpIndex(sizes);
                for (CompareMethod m : methods) {
                    double t = send(options.get(m), files.get(w), sizes.get(w), address, arrived);
                    listener.sent(sizes.get(w), 0, m, null, t);
                }
            }
            for (int run = 0; run < runs; run++) {
                for (int s = 0; s < sizes.size(); s++) {
                    for (int k = 0; k < methods.length; k++) {
                        CompareMethod m = methods[Math.floorMod(k + run + s, methods.length)];
                        double t = send(options.get(m), files.get(s), sizes.get(s), address, arrived);
                        ms[s][m.ordinal()][run] = t;
                        String strategy = last.get().strategy();
                        if (m == CompareMethod.AUTO) {
                            autoStrategy[s] = strategy;
                        }
                        listener.sent(sizes.get(s), run + 1, m, strategy, t);
                    }
                }
            }
        }
        List<ComparisonRow> rows = new ArrayList<>();
        for (int s = 0; s < sizes.size(); s++) {
            double[][] bySize = ms[s];
            double[] ratios = new double[runs];
            for (int run = 0; run < runs; run++) {
                ratios[run] = bySize[CompareMethod.TRANSFER_TO.ordinal()][run]
                        / bySize[CompareMethod.BUFFERED_4K.ordinal()][run];
            }
            rows.add(new ComparisonRow(
                    sizes.get(s),
                    Stats.median(bySize[CompareMethod.BUFFERED_4K.ordinal()]),
                    Stats.median(bySize[CompareMethod.TRANSFER_TO.ordinal()]),
                    Stats.median(bySize[CompareMethod.AUTO.ordinal()]),
                    autoStrategy[s],
                    Stats.median(ratios)));
        }
        return rows;
    }

    /** The largest file of at most 64 MiB (else the smallest). */
    static int warmUpIndex(List<Long> sizes) {
        int best = 0;
        for (int i = 0; i < sizes.size(); i++) {
            long size = sizes.get(i);
            boolean fits = size <= WARM_UP_LARGEST;
            boolean bestFits = sizes.get(best) <= WARM_UP_LARGEST;
            if (fits && (!bestFits || size > sizes.get(best)) || !fits && !bestFits && size < sizes.get(best)) {
                best = i;
            }
        }
        return best;
    }

    /** Sends one file and returns the milliseconds from connecting until the server saw end of stream. */
    private double send(
            TransferOptions options,
            Path file,
            long size,
            InetSocketAddress address,
            BlockingQueue<Server.Connection> arrived)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        try (SocketChannel socket = SocketChannel.open()) {
            socket.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
            socket.connect(address);
            Transfers.copy(file, socket, options);
        }
        Server.Connection c = arrived.poll(5, TimeUnit.MINUTES);
        if (c == null) {
            throw new IOException("the receiver reported nothing within 5 minutes");
        }
        if (!c.complete() || c.bytes() != size) {
            throw new IOException(
                    "the receiver got " + c.bytes() + " bytes of " + size + (c.complete() ? "" : ": " + c.failure()));
        }
        return (c.endNanos() - start) / 1e6;
    }
}
