package io.zerocopy.examples.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A response head written as bytes while it is built: the status line, the fields, the empty line,
 * and an error page's text after them. Every character this server puts in a head is ASCII, written
 * as one byte. It stands where a {@code StringBuilder}, its {@code String} and that string's encoding
 * made three copies of each head.
 */
final class Head {
    private byte[] bytes = new byte[256];
    private int length;

    Head append(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
        return this;
    }

    /** Appends ASCII text, a byte per character. */
    Head append(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            bytes[length++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    Head append(char c) {
        ensure(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Appends a number that is never negative (a size, a position, a status), in decimal. */
    Head append(long n) {
        int digits = 1;
        for (long rest = n; rest >= 10; rest /= 10) {
            digits++;
        }
        ensure(digits);
        long rest = n;
        for (int i = length + digits - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        length += digits;
        return this;
    }

    /** The bytes so far, ready to read; the head is not appended to after this. */
    ByteBuffer toBuffer() {
        return ByteBuffer.wrap(bytes, 0, length);
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + more));
        }
    }

    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }
}
