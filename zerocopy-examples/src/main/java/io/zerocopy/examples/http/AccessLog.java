package io.zerocopy.examples.http;

import java.io.PrintWriter;
import java.net.SocketAddress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One line per request, in the Common Log Format with the time taken appended:
 * {@code 127.0.0.1 - - [06/Nov/2026:08:49:37 +0000] "GET /a.bin HTTP/1.1" 200 1048576 0.412}
 * (body bytes sent, milliseconds from the complete request head to the last byte handed to the
 * kernel, or to the failure). Lines are written whole under a lock, so several threads may share
 * one log.
 */
final class AccessLog {

    /** A log that writes nothing. */
    static final AccessLog OFF = new AccessLog(null);

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US).withZone(ZoneOffset.UTC);

    private final PrintWriter out;

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
     * @param bodyBytes how many bytes of the body went out (fewer than planned if it failed)
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
                Math.max(0, bodyBytes),
                (System.nanoTime() - startNanos) / 1e6);
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }

    private static String host(SocketAddress remote) {
        if (remote instanceof java.net.InetSocketAddress) {
            return ((java.net.InetSocketAddress) remote).getAddress().getHostAddress();
        }
        return "-";
    }
}
