package io.zerocopy.examples.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A client over a plain socket that sends exactly the bytes it is given and reads responses by
 * their framing, for what HTTP libraries refuse to send (traversal spellings, malformed heads,
 * pipelined requests). Every read times out after {@link #TIMEOUT_MILLIS}.
 */
final class RawClient implements AutoCloseable {
    static final int TIMEOUT_MILLIS = 15_000;

    /** A response as read off the wire; header names lower-cased. */
    record Reply(int status, String statusLine, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;

    RawClient(InetSocketAddress server) throws IOException {
        this(server, 0);
    }

    /** With a receive buffer of {@code receiveBuffer} bytes (set before connecting), or the default if 0. */
    RawClient(InetSocketAddress server, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(server, TIMEOUT_MILLIS);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        in = new BufferedInputStream(socket.getInputStream());
    }

    RawClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return this;
    }

    /** Says end of stream to the server: it has nothing more to wait for. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    Socket socket() {
        return socket;
    }

    /** Reads one response; {@code toHead} says it answers a HEAD (no body however long it says it is). */
    Reply read(boolean toHead) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new EOFException("connection closed before a response");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].equals("HTTP/1.1")) {
            throw new IOException("malformed status line: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line; !(line = line()).isEmpty(); ) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).trim());
        }
        byte[] body;
        String length = headers.get("content-length");
        if (toHead || status == 304 || status / 100 == 1 || status == 204) {
            body = new byte[0];
        } else if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
            if (body.length != Integer.parseInt(length)) {
                throw new EOFException("body ended after " + body.length + " of " + length + " bytes");
            }
        } else {
            body = in.readAllBytes();
        }
        return new Reply(status, statusLine, headers, body);
    }

    Reply get(String target) throws IOException {
        send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        return read(false);
    }

    /**
     * Reads until the server closes; returns the bytes read, or throws if it did not close within
     * the timeout. A reset counts as closed.
     */
    byte[] readToClose() throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] chunk = new byte[64 * 1024];
        try {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                all.write(chunk, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (SocketException reset) {
            // closed with a reset: closed all the same
        }
        return all.toByteArray();
    }

    /** A CRLF-terminated line without its CRLF, or null at end of stream before any byte. */
    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                byte[] b = line.toByteArray();
                int n = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
                return new String(b, 0, n, StandardCharsets.ISO_8859_1);
            }
            line.write(c);
        }
        if (line.size() == 0) {
            return null;
        }
        throw new EOFException("connection closed inside a line");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
