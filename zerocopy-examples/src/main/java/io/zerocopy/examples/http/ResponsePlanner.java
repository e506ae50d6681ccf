package io.zerocopy.examples.http;

import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import io.zerocopy.examples.http.TargetResolver.Resolution;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Decides the response to a request (RFC 9110): GET and HEAD of files, conditional requests
 * ({@code If-None-Match} over {@code If-Modified-Since}, 304), one range with {@code If-Range}
 * (206, 416), and the error pages; other known methods get 405 with {@code Allow}, unknown ones
 * 501. It resolves the target, opens the file and hands it over inside the {@link Response}; it
 * never writes to a connection. Thread-safe.
 */
final class ResponsePlanner {

    private static final Set<String> KNOWN_METHODS =
            Set.of("POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    private static final Map<Integer, String> REASONS = Map.ofEntries(
            Map.entry(200, "OK"),
            Map.entry(206, "Partial Content"),
            Map.entry(304, "Not Modified"),
            Map.entry(400, "Bad Request"),
            Map.entry(403, "Forbidden"),
            Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"),
            Map.entry(408, "Request Timeout"),
            Map.entry(414, "URI Too Long"),
            Map.entry(416, "Range Not Satisfiable"),
            Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(500, "Internal Server Error"),
            Map.entry(501, "Not Implemented"),
            Map.entry(503, "Service Unavailable"),
            Map.entry(505, "HTTP Version Not Supported"));

    private static final String SERVER = "zerocopy-examples";

    /** {@link #statusLineBytes} of each status this planner answers, by status: every head starts with one. */
    private static final byte[][] STATUS_LINES = new byte[600][];

    static {
        for (int status : REASONS.keySet()) {
            STATUS_LINES[status] = statusLineBytes(status);
        }
    }

    private static final byte[] NO_BYTES = {};

    private final TargetResolver resolver;
    /** The error log: standard error in the server. */
    private final PrintStream errors;

    private final ShortageLog shortages;

    /** A planner whose error log is standard error. */
    ResponsePlanner(TargetResolver resolver) {
        this(resolver, System.err);
    }

    /** A planner that writes its error log's lines (shortages, failures) to {@code errors}. */
    ResponsePlanner(TargetResolver resolver, PrintStream errors) {
        this.resolver = resolver;
        this.errors = errors;
        this.shortages = new ShortageLog(errors);
    }

    /** The resolver's cache of open files, or null when it has none. */
    OpenFileCache openFileCache() {
        return resolver.cache();
    }

    /** Closes the resolver's root and cache; the engine calls it once no request is left to plan. */
    void close() {
        resolver.close();
    }

    /**
     * The response to a parsed request.
     *
     * @param closing whether this is the connection's last response (the server is shutting down, or the
     *     connection timed out while its thread was reading the request): it then closes the connection
     */
    Response plan(Request request, boolean closing) {
        return plan(request, closing, false);
    }

    /**
     * As {@link #plan}, the file opened afresh rather than taken from the cache of open files: for a
     * request whose response found its file shrunk before any of it went out
     * ({@link Response#nothingSent}), as a file written in place while the cache held it is.
     */
    Response planAfresh(Request request, boolean closing) {
        return plan(request, closing, true);
    }

    private Response plan(Request request, boolean closing, boolean afresh) {
        boolean keepAlive = request.keepAlive() && !closing;
        String method = request.method();
        boolean head = method.equals("HEAD");
        if (!head && !method.equals("GET")) {
            boolean known = KNOWN_METHODS.contains(method);
            return error(request, known ? 405 : 501, known ? "method not allowed" : "unknown method", keepAlive);
        }
        Resolution found;
        try {
            found = afresh ? resolver.resolveAfresh(request.target()) : resolver.resolve(request.target());
        } catch (RuntimeException e) {
            return failed(request, e);
        }
        if (!found.found()) {
            if (found.status == 503) {
                shortages.record(request.target(), found.reason);
            }
            return error(request, found.status, found.reason, keepAlive && found.status != 400);
        }
        try {
            return file(request, found, head, keepAlive);
        } catch (IOException e) {
            closeQuietly(found);
            return error(request, 500, "I/O error", false);
        } catch (RuntimeException e) {
            closeQuietly(found);
            return failed(request, e);
        }
    }

    /**
     * The response to a request whose serving met an unexpected exception, a bug: a 500 that
     * closes the connection, since what was under way is unknown; the exception is logged with
     * {@link #logFailure}. An engine sends it only if nothing of the response it replaces went out.
     *
     * @param request the request being served, or null if there was none (a refused connection)
     */
    Response failed(Request request, RuntimeException e) {
        logFailure(request, e);
        return error(request, 500, "internal error", false);
    }

    /**
     * Logs an unexpected exception met while serving {@code request} (null: none in hand): one line
     * on the error log each time, naming the request, the exception and where it was thrown.
     */
    void logFailure(Request request, RuntimeException e) {
        StackTraceElement[] trace = e.getStackTrace();
        errors.println("http-server: internal error serving " + (request == null ? "-" : request.requestLine()) + ": "
                + e + (trace.length == 0 ? "" : " (at " + trace[0] + ")"));
    }

    private Response file(Request request, Resolution found, boolean head, boolean keepAlive) throws IOException {
        // the size read with the attributes, so that the ETag and Content-Length agree; a file cut
        // after that fails the transfer as a truncation
        BasicFileAttributes attributes = found.attributes;
        long size = attributes.size();
        long now = System.currentTimeMillis(); // the Date field, read after it, is this second or later
        // RFC 9110 8.8.2.1: never later than the Date, which a file with a time in the future (copied
        // from a host whose clock is ahead) would otherwise be; what is sent is also what compares
        long modified = Math.min(attributes.lastModifiedTime().to(TimeUnit.SECONDS), now / 1000);
        String etag = etag(attributes, size);
        if (notModified(request, etag, modified)) {
            found.file.close();
            Head h = statusLine(304);
            h.append("\r\nETag: ").append(etag).append("\r\nLast-Modified: ").append(HttpDates.format(modified));
            return finish(request, 304, h, "", null, 0, 0, !keepAlive, true);
        }
        long first = 0;
        long count = size;
        int status = 200;
        String range = request.header("range");
        if (!head
                && range != null
                && ifRangeHolds(
                        request.header("if-range"),
                        etag,
                        attributes.lastModifiedTime().toMillis(),
                        now)) {
            ByteRange r = ByteRange.parse(range, size);
            if (r == ByteRange.UNSATISFIABLE) {
                found.file.close();
                Head e = statusLine(416).append("\r\nContent-Range: bytes */").append(size);
                return finish(request, 416, e, "416 Range Not Satisfiable\n", null, 0, 0, !keepAlive, false);
            }
            if (r != ByteRange.WHOLE) {
                status = 206;
                first = r.first();
                count = r.length();
            }
        }
        Head h = statusLine(status);
        h.append("\r\nContent-Type: ")
                .append(MediaTypes.of(found.name))
                .append("\r\nLast-Modified: ")
                .append(HttpDates.format(modified))
                .append("\r\nETag: ")
                .append(etag)
                .append("\r\nAccept-Ranges: bytes");
        if (status == 206) {
            h.append("\r\nContent-Range: bytes ")
                    .append(first)
                    .append('-')
                    .append(first + count - 1)
                    .append('/')
                    .append(size);
        }
        h.append("\r\nContent-Length: ").append(count);
        if (head || count == 0) {
            found.file.close();
            return finish(request, status, h, null, null, 0, 0, !keepAlive, true);
        }
        return finish(request, status, h, null, found.file, first, count, !keepAlive, true);
    }

    /** A response with no file: {@code status} with a line of text as its body (none for HEAD). */
    Response error(Request request, int status, String reason, boolean keepAlive) {
        Head h = statusLine(status);
        if (status == 405) {
            h.append("\r\nAllow: GET, HEAD");
        }
        String text = status + " " + REASONS.getOrDefault(status, "Error") + ": " + reason + "\n";
        return finish(request, status, h, text, null, 0, 0, !keepAlive || status == 400, false);
    }

    /** The response to a head the parser rejected, or to a connection refused or timed out: then close. */
    Response reject(int status, String reason) {
        return error(null, status, reason, false);
    }

    private static Head statusLine(int status) {
        byte[] line = status < STATUS_LINES.length ? STATUS_LINES[status] : null;
        if (line == null) {
            line = statusLineBytes(status);
        }
        return new Head().append(line).append(HttpDates.now());
    }

    /** The status line, the Server field and the Date field's name, for a status. */
    private static byte[] statusLineBytes(int status) {
        return ("HTTP/1.1 " + status + " " + REASONS.getOrDefault(status, "Error") + "\r\nServer: " + SERVER
                        + "\r\nDate: ")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Ends the head and builds the response. {@code text} is an error page's body (sent unless the
     * request was HEAD); {@code bodyHeadersDone} says the fields already describe the body.
     */
    private static Response finish(
            Request request,
            int status,
            Head h,
            String text,
            OpenFile file,
            long position,
            long count,
            boolean close,
            boolean bodyHeadersDone) {
        byte[] body = text == null ? NO_BYTES : text.getBytes(StandardCharsets.UTF_8);
        if (!bodyHeadersDone) {
            h.append("\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ")
                    .append(body.length);
        }
        if (status == 503) {
            h.append("\r\nRetry-After: 1");
        }
        if (close) {
            h.append("\r\nConnection: close");
        }
        h.append("\r\n\r\n");
        boolean head = request != null && request.method().equals("HEAD");
        if (!head) {
            h.append(body);
        }
        return file == null
                ? new Response(status, h.toBuffer(), null, null, 0, 0, close, request, head ? 0 : body.length)
                : new Response(status, h.toBuffer(), file.channel(), file, position, count, close, request, 0);
    }

    /** A strong validator from what changes when the content does: size, modification time, file identity. */
    static String etag(BasicFileAttributes attributes, long size) {
        Object key = attributes.fileKey();
        long micros = attributes.lastModifiedTime().to(TimeUnit.MICROSECONDS);
        return "\"" + Integer.toHexString(key == null ? 0 : key.hashCode()) + "-" + Long.toHexString(micros) + "-"
                + Long.toHexString(size) + "\"";
    }

    /** RFC 9110 13.1.3 and 13.1.4: If-None-Match (weak comparison, "*" matches) wins over If-Modified-Since. */
    static boolean notModified(Request request, String etag, long modified) {
        String noneMatch = request.header("if-none-match");
        if (noneMatch != null) {
            if (noneMatch.trim().equals("*")) {
                return true;
            }
            String opaque = etag.startsWith("W/") ? etag.substring(2) : etag;
            for (String each : noneMatch.split(",")) {
                String tag = each.trim();
                if ((tag.startsWith("W/") ? tag.substring(2) : tag).equals(opaque)) {
                    return true;
                }
            }
            return false;
        }
        String since = request.header("if-modified-since");
        if (since == null) {
            return false;
        }
        long date = HttpDates.parse(since);
        return date != Long.MIN_VALUE && modified <= date;
    }

    /**
     * RFC 9110 13.1.5: a range applies if If-Range is absent, names this strong ETag, or is the
     * exact Last-Modified date of a file that changed at least a second before now. Only then is a
     * date a strong validator (8.8.2.2): a change later in the same second keeps the date, and would
     * send a client holding it a range of content it has not seen. A file modified in the future is
     * not a second old either, so the date that holds is always the Last-Modified that was sent.
     *
     * @param modifiedMillis the file's modification time, milliseconds since the epoch
     * @param nowMillis the time the response is planned at, milliseconds since the epoch
     */
    static boolean ifRangeHolds(String ifRange, String etag, long modifiedMillis, long nowMillis) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"")) {
            return value.equals(etag);
        }
        if (value.startsWith("W/")) {
            return false;
        }
        long date = HttpDates.parse(value);
        return date != Long.MIN_VALUE
                && date == TimeUnit.MILLISECONDS.toSeconds(modifiedMillis)
                && modifiedMillis <= nowMillis - 1000;
    }

    private static void closeQuietly(Resolution found) {
        try {
            found.file.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
