package io.zerocopy.benchmarks.scale;

import java.util.ArrayList;
import java.util.List;

/**
 * The named sets of cells: {@code committed} (the run behind docs/scale.md), {@code full} (every
 * pair, thread kind, size and N) and {@code direct32m} (the bounded-direct-memory check, meant
 * for a JVM with {@code -Xmx64m -XX:MaxDirectMemorySize=32m}).
 */
final class Plans {
    static final long K64 = 64L << 10;
    static final long M8 = 8L << 20;
    static final long M256 = 256L << 20;
    static final List<Long> SIZES = List.of(K64, M8, M256);
    static final List<Integer> NS = List.of(1, 16, 256, 1000);
    /** The largest N for 256 MiB transfers: 16 of them are 4 GiB per contender and round already. */
    static final int LARGEST_N_FOR_256M = 16;

    private Plans() {}

    static List<Cell> named(String plan) {
        switch (plan) {
            case "committed":
                return committed();
            case "full":
                return matrix(List.of(Pair.values()), List.of(ThreadKind.values()), SIZES, NS);
            case "direct32m":
                return direct32m();
            default:
                throw new IllegalArgumentException("plan: " + plan + " (expected: committed, full or direct32m)");
        }
    }

    /**
     * Every combination, 256 MiB only up to N = 16, every contender of the pair, rounds by bytes
     * per contender-run ({@link #rounds}).
     */
    static List<Cell> matrix(List<Pair> pairs, List<ThreadKind> kinds, List<Long> sizes, List<Integer> ns) {
        List<Cell> cells = new ArrayList<>();
        for (Pair pair : pairs) {
            for (ThreadKind kind : kinds) {
                for (long size : sizes) {
                    for (int n : ns) {
                        if (size < M256 || n <= LARGEST_N_FOR_256M) {
                            long bytes = size * n;
                            cells.add(
                                    new Cell(pair, kind, size, n, false, ScaleContenders.planned(pair), rounds(bytes)));
                        }
                    }
                }
            }
        }
        return cells;
    }

    /** More rounds where a run is short and noisy, fewer where one run moves gigabytes. */
    static int rounds(long bytesPerRun) {
        if (bytesPerRun <= 64L << 20) {
            return 11;
        }
        if (bytesPerRun <= 1L << 30) {
            return 7;
        }
        return bytesPerRun <= 4L << 30 ? 5 : 3;
    }

    /**
     * The committed subset, about six minutes per thread kind on two cores (so twelve for a JDK
     * with both). Its heart is file → loopback at 8 MiB for every N on both thread kinds; 64 KiB
     * gets every N too (it is cheap); 256 MiB, slow receivers, the veth peer and socket → file get
     * fewer cells and rounds. Rounds shrink as a run grows (15 at N = 1, 3 at N = 1000 x 8 MiB,
     * where one run moves 8 GB). Socket → file stops at 2 GiB per run (N = 256 x 8 MiB): more
     * dirty pages than the kernel's writeback threshold would measure the disk.
     */
    static List<Cell> committed() {
        List<Cell> cells = new ArrayList<>();
        List<String> send = ScaleContenders.planned(Pair.LOOPBACK);
        List<String> receive = ScaleContenders.planned(Pair.SOCKET_TO_FILE);
        for (ThreadKind kind : ThreadKind.values()) {
            cells.add(new Cell(Pair.LOOPBACK, kind, M8, 1, false, send, 15));
            cells.add(new Cell(Pair.LOOPBACK, kind, M8, 16, false, send, 9));
            cells.add(new Cell(Pair.LOOPBACK, kind, M8, 256, false, send, 5));
            cells.add(new Cell(Pair.LOOPBACK, kind, M8, 1000, false, send, 3));
            cells.add(new Cell(Pair.LOOPBACK, kind, K64, 1, false, send, 7));
            cells.add(new Cell(Pair.LOOPBACK, kind, K64, 16, false, send, 5));
            cells.add(new Cell(Pair.LOOPBACK, kind, K64, 256, false, send, 5));
            cells.add(new Cell(Pair.LOOPBACK, kind, K64, 1000, false, send, 5));
            cells.add(new Cell(Pair.LOOPBACK, kind, M256, 1, false, send, 5));
            cells.add(new Cell(Pair.LOOPBACK, kind, M256, 16, false, send, 2));
            cells.add(new Cell(Pair.LOOPBACK, kind, M8, 256, true, send, 2));
            cells.add(new Cell(Pair.VETH, kind, M8, 1, false, send, 7));
            cells.add(new Cell(Pair.VETH, kind, M8, 16, false, send, 5));
            cells.add(new Cell(Pair.VETH, kind, M8, 256, false, send, 3));
            cells.add(new Cell(Pair.SOCKET_TO_FILE, kind, M8, 1, false, receive, 9));
            cells.add(new Cell(Pair.SOCKET_TO_FILE, kind, M8, 16, false, receive, 5));
            cells.add(new Cell(Pair.SOCKET_TO_FILE, kind, M8, 256, false, receive, 3));
            cells.add(new Cell(Pair.SOCKET_TO_FILE, kind, K64, 1000, false, receive, 3));
        }
        return cells;
    }

    /** 1,000 transfers of 8 MiB at once to loopback, fast and slow receivers, every contender, once. */
    static List<Cell> direct32m() {
        List<Cell> cells = new ArrayList<>();
        for (ThreadKind kind : ThreadKind.values()) {
            for (boolean slow : List.of(false, true)) {
                cells.add(new Cell(Pair.LOOPBACK, kind, M8, 1000, slow, ScaleContenders.planned(Pair.LOOPBACK), 1));
            }
        }
        return cells;
    }
}
