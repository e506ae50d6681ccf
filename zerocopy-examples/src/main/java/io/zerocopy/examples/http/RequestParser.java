package io.zerocopy.examples.http;

import java.nio.charset.StandardCharsets;

/**
 * A strict parser of HTTP/1.1 request heads (RFC 9112 sections 2-5), over bytes already read: it
 * says whether the bytes hold a complete head, and if so the {@link Request} and how many bytes it
 * took, or which status rejects it. It keeps no state between calls, so an engine calls it again
 * with more bytes until it decides.
 *
 * <p>Strict means: lines end in CRLF (a bare CR or LF is a 400); one space between the parts of the
 * request line; field names are tokens with the colon right after them; no obsolete line folding;
 * no control characters (NUL included) in field values; exactly one Host on HTTP/1.1, and any Host
 * a host with an optional port (RFC 9112 3.2); a
 * Content-Length of digits only, never together with Transfer-Encoding; a Transfer-Encoding whose
 * final coding is chunked, the only way it can frame a body (RFC 9112 6.3). Up to
 * {@value #MAX_EMPTY_LINES} empty lines before the request line are skipped (RFC 9112 2.2).
 *
 * <p>Limits: a request line longer than {@value #MAX_REQUEST_LINE} bytes is a 414, a header block
 * longer than {@value #MAX_HEADER_BLOCK} bytes or with more than {@value #MAX_HEADERS} fields a 431.
 * A buffer of {@link #BUFFER_SIZE} bytes is therefore always enough to reach a decision.
 */
final class RequestParser {

    /** Request line limit, CRLF included; nginx's default large header buffer is the same 8 KiB. */
    static final int MAX_REQUEST_LINE = 8 * 1024;

    /** Header fields after the request line, final empty line included. */
    static final int MAX_HEADER_BLOCK = 16 * 1024;

    static final int MAX_HEADERS = 100;

    static final int MAX_EMPTY_LINES = 8;

    /** Enough bytes for any head within the limits, so a full buffer never leaves the parser undecided. */
    static final int BUFFER_SIZE = 2 * MAX_EMPTY_LINES + MAX_REQUEST_LINE + MAX_HEADER_BLOCK;

    /** What one call decided. */
    static final class Result {
        static final Result INCOMPLETE = new Result(null, 0, 0, "incomplete");

        private final Request request;
        private final int consumed;
        private final int status;
        private final String reason;

        private Result(Request request, int consumed, int status, String reason) {
            this.request = request;
            this.consumed = consumed;
            this.status = status;
            this.reason = reason;
        }

        static Result reject(int status, String reason) {
            return new Result(null, 0, status, reason);
        }

        boolean incomplete() {
            return this == INCOMPLETE;
        }

        /** The request, or null if incomplete or rejected. */
        Request request() {
            return request;
        }

        /** Bytes of the head, leading empty lines included; what follows belongs to the next request. */
        int consumed() {
            return consumed;
        }

        /** The status that rejects the head (400, 414, 431, 505), or 0. */
        int status() {
            return status;
        }

        /** Why it was rejected, in words, for the error page. */
        String reason() {
            return reason;
        }

        @Override
        public String toString() {
            return request != null
                    ? request + ", " + consumed + " bytes"
                    : status == 0 ? reason : status + " " + reason;
        }
    }

    private RequestParser() {}

    /** Parses {@code bytes[from, to)}, which start where a request should start. */
    static Result parse(byte[] bytes, int from, int to) {
        int start = from;
        for (int empty = 0; start + 1 < to && bytes[start] == '\r' && bytes[start + 1] == '\n'; empty++) {
            if (empty == MAX_EMPTY_LINES) {
                return Result.reject(400, "too many empty lines before the request line");
            }
            start += 2;
        }
        int lineEnd = lineEnd(bytes, start, Math.min(to, start + MAX_REQUEST_LINE));
        if (lineEnd == -2) {
            return Result.reject(400, "a line ends in a bare LF or has a stray CR");
        }
        if (lineEnd < 0) {
            return to - start >= MAX_REQUEST_LINE
                    ? Result.reject(414, "request line longer than " + MAX_REQUEST_LINE + " bytes")
                    : Result.INCOMPLETE;
        }
        Result line = requestLine(bytes, start, lineEnd);
        if (line.request() == null) {
            return line;
        }
        Request request = line.request();
        int blockStart = lineEnd + 2;
        int blockLimit = Math.min(to, blockStart + MAX_HEADER_BLOCK);
        int at = blockStart;
        while (true) {
            int end = lineEnd(bytes, at, blockLimit);
            if (end == -2) {
                return Result.reject(400, "a line ends in a bare LF or has a stray CR");
            }
            if (end < 0) {
                return to - blockStart >= MAX_HEADER_BLOCK
                        ? Result.reject(431, "header block longer than " + MAX_HEADER_BLOCK + " bytes")
                        : Result.INCOMPLETE;
            }
            if (end == at) {
                Result checked = check(request);
                return checked != null ? checked : new Result(request, end + 2 - from, 0, "complete");
            }
            if (request.headerCount() == MAX_HEADERS) {
                return Result.reject(431, "more than " + MAX_HEADERS + " header fields");
            }
            String problem = field(bytes, at, end, request);
            if (problem != null) {
                return Result.reject(400, problem);
            }
            at = end + 2;
        }
    }

    /**
     * The index of the CR of the first CRLF in {@code [from, limit)}, -1 if there is none yet, -2 if
     * a CR or LF stands alone before it.
     */
    private static int lineEnd(byte[] b, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (b[i] == '\n') {
                return -2;
            }
            if (b[i] == '\r') {
                if (i + 1 >= limit) {
                    return -1;
                }
                return b[i + 1] == '\n' ? i : -2;
            }
        }
        return -1;
    }

    /** A result with the request so far (no fields yet), or one that rejects the line. */
    private static Result requestLine(byte[] b, int from, int end) {
        int sp1 = from;
        while (sp1 < end && isTchar(b[sp1])) {
            sp1++;
        }
        if (sp1 == from || sp1 == end || b[sp1] != ' ') {
            return Result.reject(400, "malformed method");
        }
        int sp2 = sp1 + 1;
        while (sp2 < end && b[sp2] > 0x20 && b[sp2] < 0x7f) {
            sp2++;
        }
        if (sp2 == sp1 + 1 || sp2 == end || b[sp2] != ' ') {
            return Result.reject(400, "malformed request target");
        }
        int v = sp2 + 1;
        if (end - v != 8
                || !ascii(b, v, v + 5).equals("HTTP/")
                || !isDigit(b[v + 5])
                || b[v + 6] != '.'
                || !isDigit(b[v + 7])) {
            return Result.reject(400, "malformed HTTP version");
        }
        if (b[v + 5] != '1') {
            return Result.reject(505, "only HTTP/1.x is served");
        }
        return new Result(
                new Request(ascii(b, from, sp1), ascii(b, sp1 + 1, sp2), b[v + 7] == '0' ? 0 : 1),
                0,
                0,
                "request line");
    }

    /** Adds one field line to the request; returns why it is malformed, or null. */
    private static String field(byte[] b, int from, int end, Request request) {
        if (b[from] == ' ' || b[from] == '\t') {
            return "obsolete line folding";
        }
        int colon = from;
        while (colon < end && isTchar(b[colon])) {
            colon++;
        }
        if (colon == from || colon == end || b[colon] != ':') {
            return "malformed field name";
        }
        int v = colon + 1;
        int e = end;
        while (v < e && (b[v] == ' ' || b[v] == '\t')) {
            v++;
        }
        while (e > v && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
            e--;
        }
        for (int i = v; i < e; i++) {
            int c = b[i] & 0xff;
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return "control character in a field value";
            }
        }
        byte[] name = new byte[colon - from];
        for (int i = 0; i < name.length; i++) {
            byte c = b[from + i];
            name[i] = c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
        }
        request.add(
                new String(name, StandardCharsets.ISO_8859_1), new String(b, v, e - v, StandardCharsets.ISO_8859_1));
        return null;
    }

    /** Rules across fields: Host, and a body's framing. */
    private static Result check(Request request) {
        int hosts = request.count("host");
        if (hosts > 1 || (hosts == 0 && request.minorVersion() >= 1)) {
            return Result.reject(400, hosts == 0 ? "no Host field" : "more than one Host field");
        }
        if (hosts == 1 && !validHost(request.header("host"))) {
            return Result.reject(400, "malformed Host");
        }
        if (request.count("content-length") > 0) {
            if (request.header("transfer-encoding") != null) {
                return Result.reject(400, "both Content-Length and Transfer-Encoding");
            }
            if (request.count("content-length") > 1 || !digits(request.header("content-length"))) {
                return Result.reject(400, "malformed Content-Length");
            }
        }
        String codings = request.header("transfer-encoding");
        if (codings != null && !endsInChunked(codings)) {
            // RFC 9112 6.3: the body's length cannot be told, so neither can where the next request starts
            return Result.reject(400, "Transfer-Encoding whose final coding is not chunked");
        }
        return null;
    }

    /** Whether the last coding of a Transfer-Encoding list (empty elements skipped) is chunked. */
    private static boolean endsInChunked(String codings) {
        String[] elements = codings.split(",");
        for (int i = elements.length - 1; i >= 0; i--) {
            String coding = elements[i].trim();
            if (!coding.isEmpty()) {
                return coding.equalsIgnoreCase("chunked");
            }
        }
        return false;
    }

    /**
     * Whether a Host value is {@code uri-host [":" port]} (RFC 9112 3.2, RFC 3986 3.2.2): a reg-name
     * of unreserved characters, sub-delims and percent-escapes (which an IPv4 address is too), or an
     * IP literal in brackets, checked for its characters only; then optionally a colon and a port of
     * digits, which may be empty. An empty value is valid: a target without an authority has one.
     */
    private static boolean validHost(String host) {
        int end;
        if (host.startsWith("[")) {
            end = host.indexOf(']');
            if (end < 2) {
                return false;
            }
            for (int i = 1; i < end; i++) {
                char c = host.charAt(i);
                if (!isUnreserved(c) && !isSubDelim(c) && c != ':' && c != '%') {
                    return false;
                }
            }
            end++;
        } else {
            end = host.indexOf(':');
            end = end < 0 ? host.length() : end;
            for (int i = 0; i < end; i++) {
                char c = host.charAt(i);
                if (c == '%') {
                    if (i + 2 >= end || !isHex(host.charAt(i + 1)) || !isHex(host.charAt(i + 2))) {
                        return false;
                    }
                    i += 2;
                } else if (!isUnreserved(c) && !isSubDelim(c)) {
                    return false;
                }
            }
        }
        if (end < host.length() && host.charAt(end) != ':') {
            return false;
        }
        for (int i = end + 1; i < host.length(); i++) {
            if (host.charAt(i) < '0' || host.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** RFC 3986 unreserved: ALPHA, DIGIT, {@code - . _ ~}. */
    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0;
    }

    /** RFC 3986 sub-delims. */
    private static boolean isSubDelim(char c) {
        return "!$&'()*+,;=".indexOf(c) >= 0;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean digits(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isDigit((byte) s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** RFC 9110 tchar: the characters of a token (methods, field names). */
    static boolean isTchar(byte c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c)) {
            return true;
        }
        return c > 0 && "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static String ascii(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
