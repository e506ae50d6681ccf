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
 * deadline. Connections, threads and memory sampling are set up before the clock starts. At the
 * deadline every socket is closed, which ends any blocked call; nothing can hang a round.
 */
final class CellRunner {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

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

    RunResult run(Peer peer, Cell cell, String name, int round, int order) throws IOException, InterruptedException {
        Contender contender = ScaleContenders.get(cell.pair(), name);
        Path source = cell.pair().sendsFile ? workspace.source(cell.size()) : null;
        sampler.settle();
        List<SocketChannel> sockets = connect(peer, cell);
        Outcomes outcomes = new Outcomes(cell.n());
        ExecutorService threads = null;
        Thread loop = null;
        long start;
        long cpuBefore;
        long directAtStart;
        try {
            if (contender instanceof Contender.Loop) {
                for (SocketChannel socket : sockets) {
                    socket.configureBlocking(false);
                }
                directAtStart = sampler.begin();
                cpuBefore = OS.getProcessCpuTime();
                start = System.nanoTime();
                long deadline = start + deadlineNanos(cell);
                Contender.StepFactory steps = ((Contender.Loop) contender).steps();
                loop = new Thread(() -> SelectorLoop.run(steps, source, sockets, deadline, outcomes), "scale-selector-loop");
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
                directAtStart = sampler.begin();
                cpuBefore = OS.getProcessCpuTime();
                start = System.nanoTime();
                go.countDown();
            }
            if (!outcomes.await(start + deadlineNanos(cell))) {
                closeAll(sockets); // ends every blocked read and write
                outcomes.failUnsettled("not confirmed within " + TimeUnit.NANOSECONDS.toSeconds(deadlineNanos(cell)) + " s");
            }
            long cpu = OS.getProcessCpuTime() - cpuBefore;
            MemorySampler.Peaks memory = sampler.end(directAtStart);
            long wall = outcomes.lastEnd(System.nanoTime()) - start;
            long bytes = (long) outcomes.successes() * cell.size();
            return new RunResult(cell, name, round, order, bytes, wall, cpu, memory, outcomes.millis(),
                    cell.n() - outcomes.successes(), outcomes.firstFailure());
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
    private Runnable transfer(Contender contender, Cell cell, int i, Path source, SocketChannel socket,
            Outcomes outcomes) {
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
