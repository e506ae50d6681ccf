package io.zerocopy.benchmarks.scale;

import java.util.List;
import java.util.Locale;

/**
 * One cell of the benchmark: N transfers of {@code size} bytes at once on one pair and thread
 * kind, run by every contender in each of {@code rounds} rounds.
 *
 * @param slow whether receivers (or, for socket → file, the peer's senders) start slowly: the
 *     first eighth of each transfer, at most 1 MiB, moves 16 KiB at a time with a 10 ms pause
 *     after each, the way a server meets slow clients; then they drain at full speed
 */
record Cell(Pair pair, ThreadKind threads, long size, int n, boolean slow, List<String> contenders, int rounds) {
    static final long SLOW_MAX_BYTES = 1 << 20;
    static final int SLOW_PAUSE_MICROS = 10_000;

    Cell {
        contenders = List.copyOf(contenders);
        if (n < 1 || size < 1 || rounds < 1 || contenders.isEmpty()) {
            throw new IllegalArgumentException("cell: n=" + n + " size=" + size + " rounds=" + rounds + " contenders="
                    + contenders + " (expected: n, size and rounds >= 1, a contender)");
        }
    }

    /** All bytes of one contender's run. */
    long bytes() {
        return size * n;
    }

    Cell withContenders(List<String> names) {
        return new Cell(pair, threads, size, n, slow, names, rounds);
    }

    Cell withRounds(int count) {
        return new Cell(pair, threads, size, n, slow, contenders, count);
    }

    Cell withSlow(boolean slowReceivers) {
        return new Cell(pair, threads, size, n, slowReceivers, contenders, rounds);
    }

    /** What the peer is told on every connection of this cell. */
    PeerProtocol.Message message() {
        byte mode = pair.sendsFile ? PeerProtocol.RECEIVE : PeerProtocol.SEND;
        return slow
                ? new PeerProtocol.Message(mode, size, Math.min(size / 8, SLOW_MAX_BYTES), SLOW_PAUSE_MICROS)
                : new PeerProtocol.Message(mode, size, 0, 0);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%s %s %s N=%d%s x%d rounds %s",
                pair.id,
                threads.id,
                Sizes.format(size),
                n,
                slow ? " slow" : "",
                rounds,
                contenders);
    }
}
