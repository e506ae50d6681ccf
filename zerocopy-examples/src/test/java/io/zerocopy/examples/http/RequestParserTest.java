package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The request parser on fixed cases and on seeded generated ones ({@code -Dhttp.seed=N} replays a run). */
class RequestParserTest {

    private static final int CASES = 400;

    @BeforeAll
    static void seed() {
        System.out.println("RequestParserTest seed: " + HostileRequests.SEED + " (-Dhttp.seed to replay)");
    }

    private static RequestParser.Result parse(String head) {
        byte[] b = head.getBytes(StandardCharsets.ISO_8859_1);
        return RequestParser.parse(b, 0, b.length);
    }

    @Test
    void parse_complete_fieldsAndVersion() {
        RequestParser.Result r =
                parse("\r\nGET /a%20b?x=1 HTTP/1.0\r\nHost: h:80\r\nX-A:  one \t\r\nx-a: two\r\n\r\nNEXT");
        assertThat(r.request()).isNotNull();
        assertThat(r.consumed())
                .isEqualTo(2 + "GET /a%20b?x=1 HTTP/1.0\r\nHost: h:80\r\nX-A:  one \t\r\nx-a: two\r\n\r\n".length());
        assertThat(r.request().method()).isEqualTo("GET");
        assertThat(r.request().target()).isEqualTo("/a%20b?x=1");
        assertThat(r.request().minorVersion()).isZero();
        assertThat(r.request().header("x-a")).isEqualTo("one, two");
        assertThat(r.request().keepAlive()).isFalse();
    }

    @Test
    void parse_keepAliveRules() {
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\n\r\n").request().keepAlive())
                .isTrue();
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\n\r\n")
                        .request()
                        .keepAlive())
                .isFalse();
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n")
                        .request()
                        .keepAlive())
                .isFalse();
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
                        .request()
                        .keepAlive())
                .isTrue();
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 000\r\n\r\n")
                        .request()
                        .keepAlive())
                .isTrue();
        assertThat(parse("GET / HTTP/1.2\r\nHost: h\r\n\r\n").request().minorVersion())
                .isEqualTo(1);
    }

    /** RFC 9112 3.2: Host is uri-host, then optionally a colon and a port of digits, none included. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''",
                "x",
                "x:",
                "x:8080",
                ":80",
                "127.0.0.1:80",
                "[::1]",
                "[::1]:8080",
                "[fe80::1%25eth0]",
                "[v1.fe:x]",
                "xn--caf-dma.example",
                "a-b.c_d~e!f$g&h'i(j)k*l+m,n;o=p%41"
            })
    void parse_validHost_parsed(String host) {
        RequestParser.Result r = parse("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        assertThat(r.request()).as(r.toString()).isNotNull();
    }

    /** RFC 9112 3.2: a Host that is not uri-host [":" port] is a 400. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "x:abc", "x:80a", "x:1:2", "::1", "[::1", "[::1]x", "[]", "x]", "a%zz", "a%4", "a\"b", "a<b", "a{b}",
                "a#b", "a?b"
            })
    void parse_malformedHost_400(String host) {
        RequestParser.Result r = parse("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
    }

    /** A body framed by chunked, the final coding, is a request whose connection closes after its answer. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"chunked", "CHUNKED", "gzip, chunked", "gzip,chunked"})
    void parse_transferEncodingEndingInChunked_parsedNotKeptAlive(String codings) {
        RequestParser.Result r = parse("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: " + codings + "\r\n\r\n");
        assertThat(r.request()).as(r.toString()).isNotNull();
        assertThat(r.request().keepAlive()).isFalse();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "GET / HTTP/1.1\\r\\n\\r\\n                          | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n  | 400",
                "GET / HTTP/1.1\\r\\nHost: a/b\\r\\n\\r\\n            | 400",
                "GET  / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n             | 400",
                "GET / HTTP/1.1 \\r\\nHost: a\\r\\n\\r\\n             | 400",
                "GET / http/1.1\\r\\nHost: a\\r\\n\\r\\n              | 400",
                "GET / HTTP/3.0\\r\\nHost: a\\r\\n\\r\\n              | 505",
                "GET /\\u00e9 HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n         | 400",
                "G(T / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n              | 400",
                "\\u0020GET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n       | 400",
                "GET / HTTP/1.1\\nHost: a\\r\\n\\r\\n                 | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\n\\r\\n                 | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\r\\n\\r\\n           | 400",
                "GET / HTTP/1.1\\r\\nHost : a\\r\\n\\r\\n             | 400",
                "GET / HTTP/1.1\\r\\n: a\\r\\n\\r\\n                  | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\n folded\\r\\n\\r\\n  | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\u0000\\r\\n\\r\\n         | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nX: \\u007f\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1\\r\\nContent-Length: 1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 0x1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked, gzip\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked\\r\\nTransfer-Encoding: gzip\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: \\r\\n\\r\\n | 400",
            })
    void parse_malformed_rejectedWithStatus(String escaped, int status) {
        String head = escaped.strip()
                .replace("\\r", "\r")
                .replace("\\n", "\n")
                .replace("\\u0000", "\0")
                .replace("\\u007f", "\u007f")
                .replace("\\u00e9", "\u00e9")
                .replace("\\u0020", " ");
        RequestParser.Result r = parse(head);
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.request()).isNull();
    }

    @Test
    void parse_limits() {
        String longLine = "GET /" + "a".repeat(RequestParser.MAX_REQUEST_LINE) + " HTTP/1.1\r\n";
        assertThat(parse(longLine).status()).isEqualTo(414);
        assertThat(parse(longLine.substring(0, RequestParser.MAX_REQUEST_LINE)).status())
                .as("decided as soon as the limit is reached")
                .isEqualTo(414);
        String justFits = "GET /" + "a".repeat(RequestParser.MAX_REQUEST_LINE - 16) + " HTTP/1.1\r\nHost: h\r\n\r\n";
        assertThat(parse(justFits).request()).isNotNull();
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\n" + "X: y\r\n".repeat(RequestParser.MAX_HEADERS))
                        .status())
                .isEqualTo(431);
        assertThat(parse("GET / HTTP/1.1\r\nHost: h\r\nX: " + "y".repeat(RequestParser.MAX_HEADER_BLOCK))
                        .status())
                .isEqualTo(431);
        assertThat(parse("\r\n".repeat(RequestParser.MAX_EMPTY_LINES + 1) + "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                        .status())
                .isEqualTo(400);
    }

    /** Valid heads parse to what was generated; every shorter prefix is incomplete; what follows is left alone. */
    @TestFactory
    Stream<DynamicTest> parse_generatedValid_roundTrips() {
        Random random = new Random(HostileRequests.SEED);
        return IntStream.range(0, CASES).mapToObj(i -> {
            String head = HostileRequests.valid(random);
            return DynamicTest.dynamicTest("valid #" + i, () -> {
                byte[] b = HostileRequests.ascii(head + "GET /next HTTP/1.1\r\n");
                RequestParser.Result r = RequestParser.parse(b, 0, b.length);
                assertThat(r.request()).as(head).isNotNull();
                assertThat(r.consumed()).isEqualTo(head.length());
                assertThat(r.request().requestLine()).isEqualTo(head.substring(0, head.indexOf("\r\n")));
                assertThat(r.request().headerCount()).isEqualTo(head.split("\r\n").length - 1);
                for (int end = 0; end < head.length(); end++) {
                    assertThat(RequestParser.parse(b, 0, end).incomplete())
                            .as("prefix of %d bytes", end)
                            .isTrue();
                }
            });
        });
    }

    /**
     * Hostile heads: the parser never throws; a targeted defect gets its status; and every prefix
     * is either undecided or decided the same way, so an engine may call it on each read.
     */
    @TestFactory
    Stream<DynamicTest> parse_generatedHostile_strictAndConsistent() {
        Random random = new Random(HostileRequests.SEED + 1);
        return IntStream.range(0, CASES).mapToObj(i -> {
            HostileRequests.Case c = HostileRequests.hostile(random);
            return DynamicTest.dynamicTest("#" + i + " " + c.kind(), () -> {
                byte[] b = c.bytes();
                assertThatCode(() -> RequestParser.parse(b, 0, b.length))
                        .as(c.toString())
                        .doesNotThrowAnyException();
                RequestParser.Result whole = RequestParser.parse(b, 0, b.length);
                if (c.expected() != 0) {
                    assertThat(whole.status()).as(c.toString()).isEqualTo(c.expected());
                } else if (!whole.incomplete() && whole.request() == null) {
                    assertThat(whole.status()).as(c.toString()).isIn(400, 414, 431, 505);
                }
                if (whole.request() != null) {
                    Request q = whole.request();
                    for (byte m : q.method().getBytes(StandardCharsets.ISO_8859_1)) {
                        assertThat(RequestParser.isTchar(m)).as(c.toString()).isTrue();
                    }
                    assertThat(q.target()).matches("[\\x21-\\x7e]+");
                    assertThat(whole.consumed()).isBetween(1, b.length);
                }
                for (int end = 0; end < b.length; end += 1 + end / 64) {
                    RequestParser.Result prefix = RequestParser.parse(b, 0, end);
                    if (!prefix.incomplete()) {
                        assertThat(prefix.status())
                                .as("prefix of %d bytes of %s", end, c)
                                .isEqualTo(whole.status());
                    }
                }
            });
        });
    }
}
