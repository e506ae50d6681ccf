package io.zerocopy.examples.http;

import java.io.PrintWriter;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One line per request, in the Common Log Format with the time taken appended:
 * {@code 127.0.0.1 - - [06/Nov/2026:08:49:37 +0000] "GET /a.bin HTTP/1.1" 200 1048576 0.412}
 * (body bytes sent, milliseconds from the complete request head to the last byte handed to the
 * kernel, or to the failure). Any thread may log; lines are written whole, in order, by one writer
 * thread of the log's own, which runs while there are lines to write. Serving never waits for the
 * log: when its reader falls behind (a pipe nobody reads), lines past {@link #QUEUE_LINES} are
 * dropped, and a line says how many once the log catches up.
 */
final class AccessLog {

    /** A log that writes nothing. */
    static final AccessLog OFF = new AccessLog(null);

    /** Lines waiting to be written: a burst of them at full speed; past it, lines are dropped and counted. */
    static final int QUEUE_LINES = 16_384;

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US).withZone(ZoneOffset.UTC);

    private final PrintWriter out;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(QUEUE_LINES);
    private final AtomicLong dropped = new AtomicLong();
    /** Whether a writer thread runs, or is about to. */
    private final AtomicBoolean writing = new AtomicBoolean();
    /** Lines taken from the queue and not yet written, for {@link #drain}. */
    private final AtomicLong unwritten = new AtomicLong();

    /** A log that writes to {@code out}, or none if it is null. */
    AccessLog(PrintWriter out) {
        this.out = out;
    }

    boolean enabled() {
        return out != null;
    }

    /**
     * Logs one request.
     *
     * @param remote the client's address, or null if unknown
     * @param response what was planned for it
     * @param bodyBytes how many bytes of the file went out (fewer than planned if it failed); an
     *     error page's, which goes with the head, are counted from {@code response}
     * @param startNanos {@code System.nanoTime()} when the request head was complete
     */
    void log(SocketAddress remote, Response response, long bodyBytes, long startNanos) {
        if (out == null) {
            return;
        }
        String line = String.format(
                Locale.ROOT,
                "%s - - [%s] \"%s\" %d %d %.3f",
                host(remote),
                TIME.format(Instant.now()),
                response.requestLine(),
                response.status,
                response.bodyBytesSent(bodyBytes),
                (System.nanoTime() - startNanos) / 1e6);
        unwritten.incrementAndGet();
        if (!lines.offer(line)) {
            unwritten.decrementAndGet();
            dropped.incrementAndGet();
            return;
        }
        if (writing.compareAndSet(false, true)) {
            Thread writer = new Thread(this::write, "http-access-log");
            writer.setDaemon(true);
            writer.start();
        }
    }

    /** The writer thread: writes lines until none came for a second, then ends (a later line starts another). */
    private void write() {
        while (true) {
            String line;
            try {
                line = lines.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                line = null;
            }
            if (line == null) {
                writing.set(false);
                if (lines.isEmpty() || !writing.compareAndSet(false, true)) {
                    return; // nothing more, or a newer writer has it
                }
                continue;
            }
            out.println(line);
            if (lines.isEmpty()) {
                long lost = dropped.getAndSet(0);
                if (lost > 0) {
                    out.println("http-server: " + lost + " access log lines dropped: the log's reader fell behind");
                }
                out.flush();
            }
            unwritten.decrementAndGet();
        }
    }

    /**
     * Waits up to {@code timeout} for every line logged so far to be written; false if some are
     * not (the log's reader stopped). For a stop, so that the last requests' lines come out first.
     */
    boolean drain(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (unwritten.get() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
        }
        return true;
    }

    private static String host(SocketAddress remote) {
        if (remote instanceof java.net.InetSocketAddress) {
            return ((java.net.InetSocketAddress) remote).getAddress().getHostAddress();
        }
        return "-";
    }
}
