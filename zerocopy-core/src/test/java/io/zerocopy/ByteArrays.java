package io.zerocopy;

import java.util.Arrays;

/** Compares byte arrays with a short message (lengths and the first difference), not a dump of both. */
final class ByteArrays {
    private ByteArrays() {}

    static void assertSameBytes(String what, byte[] actual, byte[] expected) {
        int at = Arrays.mismatch(actual, expected);
        if (at >= 0) {
            throw new AssertionError(what + ": got " + actual.length + " bytes, expected " + expected.length
                    + "; first difference at index " + at
                    + (at < actual.length && at < expected.length
                            ? " (got " + actual[at] + ", expected " + expected[at] + ")"
                            : ""));
        }
    }
}
