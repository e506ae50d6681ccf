package io.zerocopy.examples.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A request head as {@link RequestParser} accepted it: the request line and the header fields, names
 * lower-cased. Immutable once the parser hands it over.
 */
final class Request {
    private final String method;
    private final String target;
    private final int minorVersion;
    private final List<String> names = new ArrayList<>();
    private final List<String> values = new ArrayList<>();

    Request(String method, String target, int minorVersion) {
        this.method = method;
        this.target = target;
        this.minorVersion = minorVersion;
    }

    void add(String lowerCaseName, String value) {
        names.add(lowerCaseName);
        values.add(value);
    }

    String method() {
        return method;
    }

    /** The request-target exactly as sent (not decoded). */
    String target() {
        return target;
    }

    /** 0 for HTTP/1.0, 1 for HTTP/1.1 (and for any later 1.x, answered as 1.1). */
    int minorVersion() {
        return minorVersion;
    }

    /** The request line as it reads in an access log. */
    String requestLine() {
        return method + " " + target + " HTTP/1." + minorVersion;
    }

    int headerCount() {
        return names.size();
    }

    /** How many fields carry this (lower-case) name. */
    int count(String name) {
        int n = 0;
        for (String each : names) {
            if (each.equals(name)) {
                n++;
            }
        }
        return n;
    }

    /** The value of a field, several fields of one name joined with ", " (RFC 9110 5.3); null if absent. */
    String header(String name) {
        String joined = null;
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equals(name)) {
                joined = joined == null ? values.get(i) : joined + ", " + values.get(i);
            }
        }
        return joined;
    }

    /** Whether a comma-separated field such as Connection lists this token (case-insensitive). */
    boolean hasToken(String name, String token) {
        String value = header(name);
        if (value == null) {
            return false;
        }
        for (String each : value.split(",")) {
            if (each.trim().toLowerCase(Locale.ROOT).equals(token)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a body follows the head (which this server never reads, so the connection must close). */
    boolean hasBody() {
        String length = header("content-length");
        return header("transfer-encoding") != null
                || (length != null && !length.chars().allMatch(c -> c == '0'));
    }

    /**
     * Whether the connection may carry another request after this one: HTTP/1.1 unless the client
     * said {@code Connection: close} or sent a body; never for HTTP/1.0 (this server does not do
     * 1.0 keep-alive).
     */
    boolean keepAlive() {
        return minorVersion >= 1 && !hasToken("connection", "close") && !hasBody();
    }

    @Override
    public String toString() {
        return requestLine() + " (" + names.size() + " header fields)";
    }
}
