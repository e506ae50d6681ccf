package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one contender once on one cell: opens the N connections, lines up N threads (or one
 * selector loop) behind a start signal, lets them go, and waits for every confirmation or the
 * deadline; for small cells it repeats that a few times ({@link #batches}). Connections, threads
 * and memory sampling are set up before the clock starts. At the deadline every socket is closed,
 * which ends any blocked call; nothing can hang a round.
 */
final class CellRunner {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long MIN_RUN_BYTES = 64L << 20;
    static final int MAX_BATCHES = 32;

    private final Workspace workspace;
    private final MemorySampler sampler;
    private final boolean noDelay;
    private final long timeoutNanos;

    /**
     * @param timeoutSeconds the deadline of one run; 0 for the default, 30 s plus 20 s per GB
     */
    CellRunner(Workspace workspace, MemorySampler sampler, boolean noDelay, long timeoutSeconds) {
        this.workspace = workspace;
        this.sampler = sampler;
        this.noDelay = noDelay;
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    long deadlineNanos(Cell cell) {
        return timeoutNanos > 0 ? timeoutNanos : TimeUnit.SECONDS.toNanos(30) + cell.bytes() * 20;
    }

    /**
     * How many times a run repeats the N transfers (fresh connections each time) so that it moves
     * at least {@link #MIN_RUN_BYTES}, at most {@link #MAX_BATCHES}: one 8 MiB transfer takes a few
     * milliseconds, too short to time alone on a shared two-core machine.
     */
    static int batches(Cell cell) {
        long wanted = (MIN_RUN_BYTES + cell.bytes() - 1) / cell.bytes();
        return (int) Math.max(1, Math.min(MAX_BATCHES, wanted));
    }

    RunResult run(Peer peer, Cell cell, String name, int round, int order) throws IOException, InterruptedException {
        Contender contender = ScaleContenders.get(cell.pair(), name);
        Path source = cell.pair().sendsFile ? workspace.source(cell.size()) : null;
        sampler.settle();
        long directAtStart = sampler.begin();
        Tally tally = new Tally();
        for (int b = 0; b < batches(cell) && tally.failures == 0; b++) {
            batch(peer, cell, contender, source, tally);
        }
        MemorySampler.Peaks memory = sampler.end(directAtStart);
        return new RunResult(
                cell,
                name,
                round,
                order,
                tally.batches,
                tally.bytes,
                tally.wallNanos,
                tally.cpuNanos,
                memory,
                tally.millis,
                tally.failures,
                tally.firstFailure);
    }

    /** What the batches of one run add up to. */
    private static final class Tally {
        int batches;
        long bytes;
        long wallNanos;
        long cpuNanos;
        final List<Double> millis = new ArrayList<>();
        int failures;
        String firstFailure = "";
    }

    /** The N transfers once: connect, line up, go, wait; adds the outcome to {@code tally}. */
    private void batch(Peer peer, Cell cell, Contender contender, Path source, Tally tally)
            throws IOException, InterruptedException {
        if (!cell.pair().sendsFile) {
            workspace.createTargets(cell.n());
        }
        List<SocketChannel> sockets = connect(peer, cell);
        Outcomes outcomes = new Outcomes(cell.n());
        ExecutorService threads = null;
        Thread loop = null;
        long start;
        long cpuBefore;
        try {
            if (contender instanceof Contender.Loop) {
                for (SocketChannel socket : sockets) {
                    socket.configureBlocking(false);
                }
                cpuBefore = OS.getProcessCpuTime();
                start = System.nanoTime();
                long deadline = start + deadlineNanos(cell);
                Contender.StepFactory steps = ((Contender.Loop) contender).steps();
                loop = new Thread(
                        () -> SelectorLoop.run(steps, source, sockets, deadline, outcomes), "scale-selector-loop");
                loop.setDaemon(true);
                loop.start();
            } else {
                threads = cell.threads().newExecutor();
                CountDownLatch ready = new CountDownLatch(cell.n());
                CountDownLatch go = new CountDownLatch(1);
                for (int i = 0; i < cell.n(); i++) {
                    Runnable transfer = transfer(contender, cell, i, source, sockets.get(i), outcomes);
                    int index = i;
                    threads.execute(() -> {
                        ready.countDown();
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            outcomes.failed(index, e);
                            return;
                        }
                        transfer.run();
                    });
                }
                if (!ready.await(60, TimeUnit.SECONDS)) {
                    outcomes.failUnsettled("only " + (cell.n() - ready.getCount()) + " threads started within 60 s");
                }
                cpuBefore = OS.getProcessCpuTime();
                start = System.nanoTime();
                go.countDown();
            }
            if (!outcomes.await(start + deadlineNanos(cell))) {
                closeAll(sockets); // ends every blocked read and write
                outcomes.failUnsettled(
                        "not confirmed within " + TimeUnit.NANOSECONDS.toSeconds(deadlineNanos(cell)) + " s");
            }
            tally.cpuNanos += OS.getProcessCpuTime() - cpuBefore;
            tally.wallNanos += outcomes.lastEnd(System.nanoTime()) - start;
            tally.bytes += (long) outcomes.successes() * cell.size();
            tally.millis.addAll(outcomes.millis());
            tally.failures += cell.n() - outcomes.successes();
            if (tally.firstFailure.isEmpty()) {
                tally.firstFailure = outcomes.firstFailure();
            }
            tally.batches++;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(cell.threads().unavailableBecause(), e);
        } finally {
            closeAll(sockets);
            stop(threads, loop);
            if (!cell.pair().sendsFile) {
                workspace.deleteTargets(cell.n());
            }
        }
    }

    /** One blocking transfer, which records how it ended; never throws. */
    private Runnable transfer(
            Contender contender, Cell cell, int i, Path source, SocketChannel socket, Outcomes outcomes) {
        // the peer's one-byte confirmation, or for socket → file the start signal to the peer
        ByteBuffer signal = ByteBuffer.allocateDirect(1);
        Path target = workspace.target(i);
        return () -> {
            outcomes.started(i, System.nanoTime());
            try {
                long moved;
                if (contender instanceof Contender.Send) {
                    moved = ((Contender.Send) contender).call().send(source, socket);
                    if (moved == cell.size() && socket.read(signal) != 1) {
                        throw new IOException("the peer closed the connection before confirming");
                    }
                } else {
                    socket.write(signal);
                    moved = ((Contender.Receive) contender).call().receive(socket, target);
                }
                if (moved != cell.size()) {
                    throw new IOException("moved " + moved + " of " + cell.size() + " bytes");
                }
                outcomes.succeeded(i, System.nanoTime());
            } catch (Throwable t) {
                // an Error too (OutOfMemoryError for direct memory): it is this transfer's result
                outcomes.failed(i, t);
            }
        };
    }

    private List<SocketChannel> connect(Peer peer, Cell cell) throws IOException {
        List<SocketChannel> sockets = new ArrayList<>(cell.n());
        try {
            for (int i = 0; i < cell.n(); i++) {
                sockets.add(peer.connect(cell.message(), noDelay));
            }
            return sockets;
        } catch (IOException | RuntimeException e) {
            closeAll(sockets);
            throw e;
        }
    }

    /**
     * Closes with an immediate reset (linger 0): every byte was confirmed or the run is over, and
     * thousands of connections per round would otherwise pile up in TIME_WAIT and use up the
     * ephemeral ports.
     */
    private static void closeAll(List<SocketChannel> sockets) {
        for (SocketChannel socket : sockets) {
            try {
                if (socket.isOpen()) {
                    socket.setOption(StandardSocketOptions.SO_LINGER, 0);
                }
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private static void stop(ExecutorService threads, Thread loop) throws InterruptedException {
        if (threads != null) {
            threads.shutdown();
            if (!threads.awaitTermination(GRACE_NANOS, TimeUnit.NANOSECONDS)) {
                System.err.println("some transfer threads did not end within 10 s after their sockets closed");
            }
        }
        if (loop != null) {
            loop.join(TimeUnit.NANOSECONDS.toMillis(GRACE_NANOS));
        }
    }
}
