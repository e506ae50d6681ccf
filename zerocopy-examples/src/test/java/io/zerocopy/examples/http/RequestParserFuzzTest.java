package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Fuzz target: for any bytes, {@link RequestParser#parse} returns a request, "incomplete", or a
 * 400, 414, 431 or 505, and throws nothing. It reads nothing outside {@code [from, to)} (the same
 * bytes inside a larger array of CRLFs give the same result), an accepted head stays within the
 * limits, and the decision does not depend on how the bytes were split across reads: a prefix is
 * either still incomplete or already the same decision. Runs its committed inputs in every build;
 * {@code docs/fuzzing.md} says how to fuzz it.
 */
class RequestParserFuzzTest {

    /** CR LF everywhere around the input: reading past {@code to} would complete a head. */
    private static final byte[] GUARD = "\r\n\r\n".repeat(64).getBytes(StandardCharsets.ISO_8859_1);

    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({
        "GET ",
        "HEAD ",
        " HTTP/1.1\\x0d\\x0a",
        " HTTP/1.0",
        "HTTP/2.0",
        "\\x0d\\x0a",
        "Host: ",
        "Content-Length: ",
        "Transfer-Encoding: chunked",
        "Connection: close",
        ": ",
        "\\x0d\\x0a\\x0d\\x0a"
    })
    void parse_anyBytes(FuzzedDataProvider data) {
        int split = data.consumeInt(0, Integer.MAX_VALUE - 1); // not MAX_VALUE: Jazzer issue #931
        int repeat = data.consumeInt(0, 3);
        byte[] input = data.consumeRemainingAsBytes();
        check(inflate(input, repeat), split);
    }

    /** The request-line limit, which fuzzed inputs reach only through {@link #inflate}. */
    @Test
    void parse_requestLineOverLimit_is414() {
        byte[] head = ("GET /" + "a".repeat(RequestParser.MAX_REQUEST_LINE) + " HTTP/1.1\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        assertThat(check(head, 17).status()).isEqualTo(414);
    }

    /**
     * Input up to a few KiB cannot reach the 8 KiB and 16 KiB limits; {@code repeat} lets the fuzzer
     * stretch the part after the first byte to a size that does (1: x3, 2: x40, 3: x400, capped).
     */
    static byte[] inflate(byte[] input, int repeat) {
        if (repeat == 0 || input.length < 2) {
            return input;
        }
        int times = repeat == 1 ? 3 : repeat == 2 ? 40 : 400;
        int tail = input.length - 1;
        int length = (int) Math.min(1 + (long) tail * times, RequestParser.BUFFER_SIZE + 64);
        byte[] out = Arrays.copyOf(input, length);
        for (int i = input.length; i < length; i++) {
            out[i] = input[1 + (i - 1) % tail];
        }
        return out;
    }

    /** Asserts every property on {@code bytes}; returns the decision on all of them. */
    static RequestParser.Result check(byte[] bytes, int split) {
        RequestParser.Result whole = RequestParser.parse(bytes, 0, bytes.length);
        assertDecision(whole, bytes.length);

        byte[] framed = new byte[GUARD.length + bytes.length + GUARD.length];
        System.arraycopy(GUARD, 0, framed, 0, GUARD.length);
        System.arraycopy(bytes, 0, framed, GUARD.length, bytes.length);
        System.arraycopy(GUARD, 0, framed, GUARD.length + bytes.length, GUARD.length);
        RequestParser.Result inFrame = RequestParser.parse(framed, GUARD.length, GUARD.length + bytes.length);
        assertThat(inFrame.toString()).as("same bytes inside a larger array").isEqualTo(whole.toString());
        assertThat(inFrame.consumed()).isEqualTo(whole.consumed());

        int cut = bytes.length == 0 ? 0 : split % (bytes.length + 1);
        RequestParser.Result prefix = RequestParser.parse(bytes, 0, cut);
        assertDecision(prefix, cut);
        if (!prefix.incomplete()) {
            assertThat(prefix.toString())
                    .as("decision on the first %d of %d bytes", cut, bytes.length)
                    .isEqualTo(whole.toString());
        }
        if (whole.request() != null && cut < whole.consumed()) {
            assertThat(prefix.incomplete()).as("a prefix of an accepted head").isTrue();
        }
        if (bytes.length >= RequestParser.BUFFER_SIZE) {
            assertThat(whole.incomplete()).as("a full buffer always decides").isFalse();
        }
        return whole;
    }

    private static void assertDecision(RequestParser.Result result, int length) {
        if (result.incomplete()) {
            assertThat(result.request()).isNull();
            return;
        }
        Request request = result.request();
        if (request == null) {
            assertThat(result.status()).isIn(400, 414, 431, 505);
            assertThat(result.reason()).isNotBlank();
            return;
        }
        assertThat(result.status()).isZero();
        assertThat(result.consumed()).isBetween(1, Math.min(length, RequestParser.BUFFER_SIZE));
        assertThat(request.requestLine().length() + 2).isLessThanOrEqualTo(RequestParser.MAX_REQUEST_LINE);
        assertThat(request.headerCount()).isLessThanOrEqualTo(RequestParser.MAX_HEADERS);
        assertThat(request.target()).isNotEmpty().doesNotContain(" ", "\r", "\n");
        for (byte b : request.method().getBytes(StandardCharsets.ISO_8859_1)) {
            assertThat(RequestParser.isTchar(b))
                    .as("method %s", request.method())
                    .isTrue();
        }
        assertThat(request.minorVersion()).isIn(0, 1);
        if (request.minorVersion() == 1) {
            assertThat(request.count("host")).isEqualTo(1);
        }
    }
}
