package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

/**
 * Drives the N transfers of a {@link Contender.Loop} contender from the one thread that calls
 * {@link #run}: each non-blocking socket gets a step per write readiness until its file is sent,
 * then waits (read readiness) for the peer's one-byte confirmation. Gives up at the deadline.
 */
final class SelectorLoop {
    private static final long MAX_SELECT_MILLIS = 100;

    private SelectorLoop() {}

    private static final class Job {
        final int index;
        final Contender.Step step;
        boolean sent;
        boolean finished;

        Job(int index, Contender.Step step) {
            this.index = index;
            this.step = step;
        }
    }

    /**
     * Runs every transfer to its confirmation or failure, or until {@code deadline}
     * ({@code System.nanoTime()}); the sockets must be non-blocking and stay open for the caller.
     */
    static void run(
            Contender.StepFactory steps, Path source, List<SocketChannel> sockets, long deadline, Outcomes outcomes) {
        ByteBuffer ack = ByteBuffer.allocateDirect(1);
        try (Selector selector = Selector.open()) {
            long start = System.nanoTime();
            for (int i = 0; i < sockets.size(); i++) {
                outcomes.started(i, start);
                try {
                    sockets.get(i)
                            .register(selector, SelectionKey.OP_WRITE, new Job(i, steps.open(source, sockets.get(i))));
                } catch (IOException | RuntimeException e) {
                    outcomes.failed(i, e);
                }
            }
            while (!outcomes.allSettled() && System.nanoTime() < deadline) {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                selector.select(Math.min(MAX_SELECT_MILLIS, left));
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    serve(key, ack, outcomes);
                }
            }
            for (SelectionKey key : selector.keys()) {
                finish(key);
            }
        } catch (IOException | RuntimeException e) {
            outcomes.failUnsettled("selector loop failed: " + Outcomes.describe(e));
        }
        outcomes.failUnsettled("not confirmed by the deadline");
    }

    private static void serve(SelectionKey key, ByteBuffer ack, Outcomes outcomes) {
        Job job = (Job) key.attachment();
        try {
            if (!job.sent && key.isWritable()) {
                if (job.step.advance()) {
                    job.sent = true;
                    key.interestOps(SelectionKey.OP_READ);
                }
            } else if (job.sent && key.isReadable()) {
                ack.clear();
                int n = ((SocketChannel) key.channel()).read(ack);
                if (n > 0) {
                    outcomes.succeeded(job.index, System.nanoTime());
                    finish(key);
                } else if (n < 0) {
                    throw new IOException("the peer closed the connection before confirming");
                }
            }
        } catch (IOException | RuntimeException e) {
            outcomes.failed(job.index, e);
            finish(key);
        }
    }

    private static void finish(SelectionKey key) {
        key.cancel();
        Job job = (Job) key.attachment();
        if (job.finished) {
            return;
        }
        job.finished = true;
        try {
            job.step.close();
        } catch (IOException e) {
            // the transfer is settled already; a failed close of its file changes nothing
        }
    }
}
