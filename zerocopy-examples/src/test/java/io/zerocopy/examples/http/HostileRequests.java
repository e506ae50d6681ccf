package io.zerocopy.examples.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Generated request heads, valid and hostile, from a seeded {@link Random}. Each hostile case says
 * which status a strict parser must answer, or 0 where the mutation is random and only the
 * general rules apply (never an exception; 400, 414, 431 or 505, or a head that parses).
 */
final class HostileRequests {

    /** The seed for this run: {@code -Dhttp.seed=N} replays one. */
    static final long SEED = Long.getLong("http.seed", System.nanoTime());

    /** One generated head. */
    record Case(String kind, byte[] bytes, int expected) {
        @Override
        public String toString() {
            String shown = new String(bytes, 0, Math.min(bytes.length, 120), StandardCharsets.ISO_8859_1)
                    .replace("\r", "\\r")
                    .replace("\n", "\\n")
                    .replace("\0", "\\0");
            return kind + " (" + bytes.length + " bytes" + (expected == 0 ? "" : ", expect " + expected) + "): "
                    + shown;
        }
    }

    private static final String[] METHODS = {"GET", "HEAD", "POST", "OPTIONS", "M-SEARCH", "X_Y!"};
    private static final String TCHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~";
    private static final String PATH_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@";
    private static final byte[] NASTY = {0, '\r', '\n', ' ', '\t', 0x7f, (byte) 0xff, (byte) 0x80, ':', '%', '/', '\\'};

    private HostileRequests() {}

    static String token(Random r, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 1 + r.nextInt(max); i > 0; i--) {
            b.append(TCHARS.charAt(r.nextInt(TCHARS.length())));
        }
        return b.toString();
    }

    static String target(Random r) {
        StringBuilder b = new StringBuilder();
        for (int s = r.nextInt(4); s >= 0; s--) {
            b.append('/');
            for (int i = r.nextInt(12); i > 0; i--) {
                b.append(
                        r.nextInt(8) == 0
                                ? String.format("%%%02X", r.nextInt(128 - 48) + 48)
                                : String.valueOf(PATH_CHARS.charAt(r.nextInt(PATH_CHARS.length()))));
            }
        }
        if (r.nextInt(4) == 0) {
            b.append("?q=").append(token(r, 8).replace("#", ""));
        }
        return b.toString();
    }

    /** A field value of visible characters, spaces and tabs inside. */
    static String value(Random r) {
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(40); i > 0; i--) {
            int c = r.nextInt(10) == 0 ? (r.nextBoolean() ? ' ' : '\t') : 0x21 + r.nextInt(0x7e - 0x21 + 1);
            b.append((char) c);
        }
        return b.toString().strip();
    }

    /** A valid request head: method, target, version, Host, and a few more fields. */
    static String valid(Random r) {
        StringBuilder b = new StringBuilder();
        b.append(METHODS[r.nextInt(METHODS.length)])
                .append(' ')
                .append(target(r))
                .append(" HTTP/1.")
                .append(r.nextInt(4) == 0 ? '0' : '1')
                .append("\r\n");
        b.append(r.nextBoolean() ? "Host" : "host").append(": localhost\r\n");
        for (int i = r.nextInt(8); i > 0; i--) {
            b.append("X-")
                    .append(token(r, 10))
                    .append(':')
                    .append(r.nextBoolean() ? " " : "")
                    .append(value(r))
                    .append("\r\n");
        }
        return b.append("\r\n").toString();
    }

    /** A hostile head: a valid one with one targeted defect, or random damage. */
    static Case hostile(Random r) {
        String v = valid(r);
        int firstLine = v.indexOf("\r\n");
        switch (r.nextInt(16)) {
            case 0:
                return new Case(
                        "long request line",
                        ascii("GET /" + "a".repeat(RequestParser.MAX_REQUEST_LINE) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
                        414);
            case 1: {
                StringBuilder b = new StringBuilder("GET / HTTP/1.1\r\nHost: x\r\n");
                while (b.length() < RequestParser.MAX_HEADER_BLOCK + 100) {
                    b.append("X-Pad: ").append("p".repeat(900)).append("\r\n");
                }
                return new Case("long header block", ascii(b + "\r\n"), 431);
            }
            case 2:
                return new Case(
                        "too many fields",
                        ascii("GET / HTTP/1.1\r\nHost: x\r\n" + "A: b\r\n".repeat(RequestParser.MAX_HEADERS) + "\r\n"),
                        431);
            case 3:
                return new Case(
                        "obsolete folding",
                        ascii(v.substring(0, firstLine + 2) + " folded\r\n" + v.substring(firstLine + 2)),
                        400);
            case 4:
                return new Case(
                        "NUL in a value",
                        ascii(v.replace("Host: localhost", "Host: localhost")
                                .replace("\r\n\r\n", "\r\nX-N: a\0b\r\n\r\n")),
                        400);
            case 5:
                return new Case("HTTP/2.0", ascii(v.replaceFirst(" HTTP/1\\.[01]\r\n", " HTTP/2.0\r\n")), 505);
            case 6:
                return new Case("bad version", ascii(v.replaceFirst(" HTTP/1\\.[01]\r\n", " HTTP/1.x\r\n")), 400);
            case 7:
                return new Case("duplicate Host", ascii(v.replace("\r\n\r\n", "\r\nHost: other\r\n\r\n")), 400);
            case 8:
                return new Case(
                        "Content-Length and Transfer-Encoding",
                        ascii(v.replace("\r\n\r\n", "\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")),
                        400);
            case 9:
                return new Case(
                        "bad Content-Length",
                        ascii(v.replace(
                                "\r\n\r\n",
                                "\r\nContent-Length: " + new String[] {"-1", "1e3", "+5", "5, 5", ""}[r.nextInt(5)]
                                        + "\r\n\r\n")),
                        400);
            case 10:
                return new Case("space before colon", ascii(v.replace("\r\n\r\n", "\r\nX-S : v\r\n\r\n")), 400);
            case 11:
                return new Case("bare LF", ascii(v.replaceFirst("\r\n", "\n")), 400);
            case 12:
                return new Case("two spaces", ascii(v.replaceFirst(" ", "  ")), 400);
            case 13: {
                byte[] garbage = new byte[1 + r.nextInt(200)];
                r.nextBytes(garbage);
                return new Case("random bytes", garbage, 0);
            }
            case 14:
                return new Case("truncated", ascii(v.substring(0, r.nextInt(v.length() - 1))), 0);
            default: {
                byte[] bytes = ascii(v);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int at = r.nextInt(bytes.length);
                out.write(bytes, 0, at);
                for (int i = 1 + r.nextInt(3); i > 0; i--) {
                    out.write(NASTY[r.nextInt(NASTY.length)]);
                }
                out.write(bytes, at, bytes.length - at);
                return new Case("nasty bytes inserted", out.toByteArray(), 0);
            }
        }
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
