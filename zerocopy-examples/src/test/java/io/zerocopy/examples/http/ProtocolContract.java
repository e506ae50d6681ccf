package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a client sees, run against each engine: whole files hashed, HEAD, every range form,
 * conditional requests, keep-alive, pipelining, HTTP/1.0, methods, directories and links; with the
 * JDK's {@code HttpClient}, {@code curl} and a raw socket.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ProtocolContract extends ServerFixture {

    @Test
    void get_wholeFile_arrivesExactlyWithItsHeaders() throws Exception {
        HttpResponse<byte[]> r = get("/big.bin");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).hasSize(BIG_SIZE);
        assertThat(crc(r.body())).isEqualTo(crc(big));
        assertThat(r.headers().firstValue("content-length")).hasValue(String.valueOf(BIG_SIZE));
        assertThat(r.headers().firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(r.headers().firstValue("accept-ranges")).hasValue("bytes");
        assertThat(r.headers().firstValue("etag"))
                .hasValueSatisfying(e -> assertThat(e).matches("\"[0-9a-f-]+\""));
        long modified = Files.getLastModifiedTime(root.resolve("big.bin")).to(TimeUnit.SECONDS);
        assertThat(r.headers().firstValue("last-modified"))
                .hasValueSatisfying(d -> assertThat(HttpDates.parse(d)).isEqualTo(modified));
        assertThat(r.headers().firstValue("date")).isPresent();
    }

    @Test
    void get_smallTextAndEmptyFile() throws Exception {
        HttpResponse<byte[]> small = get("/small.txt");
        assertThat(text(small.body())).isEqualTo(SMALL);
        assertThat(small.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        HttpResponse<byte[]> empty = get("/empty.bin");
        assertThat(empty.statusCode()).isEqualTo(200);
        assertThat(empty.body()).isEmpty();
        assertThat(empty.headers().firstValue("content-length")).hasValue("0");
        assertThat(get("/%C3%A9.txt").body()).asString().isEqualTo("accented\n");
    }

    @Test
    void head_sameHeadersAsGet_noBody() throws Exception {
        HttpResponse<byte[]> head = client.send(
                request("/big.bin")
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("content-length")).hasValue(String.valueOf(BIG_SIZE));
        // and the connection is still in step: the next response on it is whole
        RawClient raw = raw();
        raw.send("HEAD /big.bin HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(raw.read(true).header("content-length")).isEqualTo(String.valueOf(BIG_SIZE));
        assertThat(raw.get("/small.txt").text()).isEqualTo(SMALL);
    }

    @Test
    void range_eachForm_sendsExactlyThatSlice() throws Exception {
        assertSlice("bytes=100-199", 100, 199);
        assertSlice("bytes=1000-", 1000, BIG_SIZE - 1);
        assertSlice("bytes=-500", BIG_SIZE - 500, BIG_SIZE - 1);
        assertSlice("bytes=0-0", 0, 0);
        assertSlice("bytes=" + (BIG_SIZE - 10) + "-" + (BIG_SIZE + 1000), BIG_SIZE - 10, BIG_SIZE - 1);
        assertSlice("bytes=-" + (BIG_SIZE * 2), 0, BIG_SIZE - 1);
        assertSlice("bytes=" + (BIG_SIZE - 2) + "-99999999999999999999", BIG_SIZE - 2, BIG_SIZE - 1);
    }

    private void assertSlice(String range, int first, int last) throws Exception {
        HttpResponse<byte[]> r = get("/big.bin", "Range", range);
        assertThat(r.statusCode()).as(range).isEqualTo(206);
        assertThat(r.headers().firstValue("content-range"))
                .as(range)
                .hasValue("bytes " + first + "-" + last + "/" + BIG_SIZE);
        assertThat(r.body()).as(range).isEqualTo(Arrays.copyOfRange(big, first, last + 1));
    }

    @Test
    void range_unsatisfiable_is416WithTheSize() throws Exception {
        for (String range : new String[] {
            "bytes=" + BIG_SIZE + "-",
            "bytes=" + (BIG_SIZE + 5) + "-" + (BIG_SIZE + 9),
            "bytes=-0",
            "bytes=99999999999999999999-"
        }) {
            HttpResponse<byte[]> r = get("/big.bin", "Range", range);
            assertThat(r.statusCode()).as(range).isEqualTo(416);
            assertThat(r.headers().firstValue("content-range")).as(range).hasValue("bytes */" + BIG_SIZE);
        }
        assertThat(get("/empty.bin", "Range", "bytes=0-").statusCode()).isEqualTo(416);
    }

    @Test
    void range_suffixOfEmptyFile_isTheWholeEmptyFile() throws Exception {
        HttpResponse<byte[]> r = get("/empty.bin", "Range", "bytes=-5");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
        assertThat(r.headers().firstValue("content-length")).hasValue("0");
        assertThat(r.headers().firstValue("content-range")).isEmpty();
    }

    @Test
    void range_severalOrMalformed_wholeFile() throws Exception {
        for (String range : new String[] {"bytes=0-9,20-29", "bytes=9-0", "lines=1-2", "bytes=x-", "bytes=1-2-3"}) {
            HttpResponse<byte[]> r = get("/big.bin", "Range", range);
            assertThat(r.statusCode()).as(range).isEqualTo(200);
            assertThat(r.body()).as(range).hasSize(BIG_SIZE);
        }
    }

    @Test
    void ifRange_matchingValidator_range_otherwiseWholeFile() throws Exception {
        HttpResponse<byte[]> first = get("/big.bin");
        String etag = first.headers().firstValue("etag").orElseThrow();
        String modified = first.headers().firstValue("last-modified").orElseThrow();
        assertThat(get("/big.bin", "Range", "bytes=0-9", "If-Range", etag).statusCode())
                .isEqualTo(206);
        assertThat(get("/big.bin", "Range", "bytes=0-9", "If-Range", modified).statusCode())
                .isEqualTo(206);
        assertThat(get("/big.bin", "Range", "bytes=0-9", "If-Range", "\"other\"")
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("/big.bin", "Range", "bytes=0-9", "If-Range", "W/" + etag)
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("/big.bin", "Range", "bytes=0-9", "If-Range", HttpDates.format(12345))
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void conditional_notModified_304_ifNoneMatchWins() throws Exception {
        HttpResponse<byte[]> first = get("/small.txt");
        String etag = first.headers().firstValue("etag").orElseThrow();
        String modified = first.headers().firstValue("last-modified").orElseThrow();
        HttpResponse<byte[]> r = get("/small.txt", "If-None-Match", etag);
        assertThat(r.statusCode()).isEqualTo(304);
        assertThat(r.body()).isEmpty();
        assertThat(r.headers().firstValue("etag")).hasValue(etag);
        assertThat(get("/small.txt", "If-None-Match", "\"x\", W/" + etag).statusCode())
                .isEqualTo(304);
        assertThat(get("/small.txt", "If-None-Match", "*").statusCode()).isEqualTo(304);
        assertThat(get("/small.txt", "If-Modified-Since", modified).statusCode())
                .isEqualTo(304);
        assertThat(get("/small.txt", "If-Modified-Since", HttpDates.format(1)).statusCode())
                .isEqualTo(200);
        assertThat(get("/small.txt", "If-Modified-Since", "not a date").statusCode())
                .isEqualTo(200);
        // If-None-Match is evaluated and If-Modified-Since then ignored
        assertThat(get("/small.txt", "If-None-Match", "\"x\"", "If-Modified-Since", modified)
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void keepAlive_oneConnectionServesManyRequests() throws Exception {
        RawClient raw = raw();
        for (int i = 0; i < 5; i++) {
            RawClient.Reply reply = raw.get("/big.bin");
            assertThat(reply.status()).isEqualTo(200);
            assertThat(crc(reply.body())).isEqualTo(crc(big));
            assertThat(reply.header("connection")).isNull();
        }
        raw.send("GET /small.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        RawClient.Reply last = raw.read(false);
        assertThat(last.header("connection")).isEqualTo("close");
        assertThat(last.text()).isEqualTo(SMALL);
        assertThat(raw.readToClose()).isEmpty();
    }

    @Test
    void http10_answeredThenClosed() throws Exception {
        RawClient raw = raw();
        raw.send("GET /small.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        RawClient.Reply reply = raw.read(false);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text()).isEqualTo(SMALL);
        assertThat(reply.header("connection")).isEqualTo("close");
        assertThat(raw.readToClose()).isEmpty();
    }

    @Test
    void pipelining_responsesInRequestOrder() throws Exception {
        RawClient raw = raw();
        raw.send("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD /big.bin HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=10-19\r\n\r\n"
                + "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /nothing-here HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /small.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(raw.read(false).text()).isEqualTo(SMALL);
        assertThat(raw.read(true).header("content-length")).isEqualTo(String.valueOf(BIG_SIZE));
        assertThat(raw.read(false).body()).isEqualTo(Arrays.copyOfRange(big, 10, 20));
        assertThat(crc(raw.read(false).body())).isEqualTo(crc(big));
        assertThat(raw.read(false).status()).isEqualTo(404);
        assertThat(raw.read(false).text()).isEqualTo(SMALL);
        assertThat(raw.readToClose()).isEmpty();
    }

    @Test
    void methods_otherKnown405WithAllow_unknown501_connectionKept() throws Exception {
        RawClient raw = raw();
        raw.send("POST /small.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        RawClient.Reply post = raw.read(false);
        assertThat(post.status()).isEqualTo(405);
        assertThat(post.header("allow")).isEqualTo("GET, HEAD");
        raw.send("BREW /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(raw.read(false).status()).isEqualTo(501);
        assertThat(raw.get("/small.txt").text()).isEqualTo(SMALL);
        raw.send("get /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(raw.read(false).status()).as("methods are case-sensitive").isEqualTo(501);
    }

    @Test
    void requestWithBody_answeredThenClosed() throws Exception {
        RawClient raw = raw();
        raw.send("PUT /small.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
        RawClient.Reply reply = raw.read(false);
        assertThat(reply.status()).isEqualTo(405);
        assertThat(reply.header("connection")).isEqualTo("close");
        assertThat(raw.readToClose()).isEmpty();
    }

    @Test
    void directories_indexOr404_missing404_links403() throws Exception {
        assertThat(text(get("/").body())).isEqualTo("<h1>root</h1>\n");
        assertThat(get("/").headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(text(get("/docs").body())).isEqualTo("<h1>docs</h1>\n");
        assertThat(text(get("/docs/").body())).isEqualTo("<h1>docs</h1>\n");
        assertThat(get("/empty/").statusCode()).isEqualTo(404);
        assertThat(get("/no-such-file").statusCode()).isEqualTo(404);
        assertThat(get("/link-in").statusCode()).isEqualTo(403);
        assertThat(get("/link-out/secret.txt").statusCode()).isEqualTo(403);
    }

    @Test
    void followSymlinks_linksServed() throws Exception {
        start(java.time.Duration.ofSeconds(30), 16, true);
        assertThat(text(get("/link-in").body())).isEqualTo(SMALL);
        assertThat(text(get("/link-out/secret.txt").body())).isEqualTo(SECRET);
    }

    @Test
    void unreadableFile_403() throws Exception {
        Path locked = Files.writeString(root.resolve("locked.txt"), "locked\n");
        try {
            locked.toFile().setReadable(false, false);
            org.junit.jupiter.api.Assumptions.assumeFalse(
                    Files.isReadable(locked),
                    "running as root: every file is readable, so 403 for an unreadable one cannot be shown");
            assertThat(get("/locked.txt").statusCode()).isEqualTo(403);
        } finally {
            Files.delete(locked);
        }
    }

    @Test
    void accessLog_oneLinePerRequest() throws Exception {
        get("/small.txt");
        RawClient.Reply notFound =
                raw().send("GET /no HTTP/1.1\r\nHost: x\r\n\r\n").read(false);
        RawClient.Reply headOnly =
                raw().send("HEAD /no HTTP/1.1\r\nHost: x\r\n\r\n").read(true);
        assertThat(awaitLogLine(l -> l.contains("\"GET /small.txt HTTP/1.1\"")))
                .matches("127\\.0\\.0\\.1 - - \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d \\+0000\\] "
                        + "\"GET /small.txt HTTP/1.1\" 200 " + SMALL.length() + " \\d+\\.\\d{3}");
        // an error page is a body too, as the Common Log Format counts it; a HEAD sends none
        assertThat(notFound.body()).isNotEmpty();
        assertThat(awaitLogLine(l -> l.contains("\"GET /no HTTP/1.1\"")))
                .contains("\" 404 " + notFound.body().length + " ");
        assertThat(headOnly.status()).isEqualTo(404);
        assertThat(awaitLogLine(l -> l.contains("\"HEAD /no HTTP/1.1\""))).contains("\" 404 0 ");
    }

    @Test
    void curl_getHashed_head_range_304_keepAlive() throws Exception {
        Path out = dir.resolve("curl-" + engine() + ".bin");
        Curl.Run get = Curl.run(
                "-o",
                out.toString(),
                "-w",
                "%{http_code} %{size_download}",
                uri("/big.bin").toString());
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(get.out()).isEqualTo("200 " + BIG_SIZE);
        assertThat(crc(Files.readAllBytes(out))).isEqualTo(crc(big));

        Curl.Run head = Curl.run("-I", uri("/big.bin").toString());
        assertThat(head.out()).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: " + BIG_SIZE + "\r\n");

        Curl.Run range = Curl.run(
                "-r",
                "100-199",
                "-o",
                out.toString(),
                "-w",
                "%{http_code}",
                uri("/big.bin").toString());
        assertThat(range.out()).isEqualTo("206");
        assertThat(Files.readAllBytes(out)).isEqualTo(Arrays.copyOfRange(big, 100, 200));
        Curl.Run suffix =
                Curl.run("-r", "-100", "-o", out.toString(), uri("/big.bin").toString());
        assertThat(suffix.exit()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(Arrays.copyOfRange(big, BIG_SIZE - 100, BIG_SIZE));
        Curl.Run open = Curl.run(
                "-r",
                (BIG_SIZE - 7) + "-",
                "-o",
                out.toString(),
                uri("/big.bin").toString());
        assertThat(open.exit()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(Arrays.copyOfRange(big, BIG_SIZE - 7, BIG_SIZE));

        String etag = get("/small.txt").headers().firstValue("etag").orElseThrow();
        Curl.Run notModified = Curl.run(
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "-H",
                "If-None-Match: " + etag,
                uri("/small.txt").toString());
        assertThat(notModified.out()).isEqualTo("304");
        Curl.Run unsatisfiable = Curl.run(
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "-r",
                BIG_SIZE + "-",
                uri("/big.bin").toString());
        assertThat(unsatisfiable.out()).isEqualTo("416");

        // two URLs on one command line: the second reuses the first one's connection
        Curl.Run twice = Curl.run(
                "-o",
                "/dev/null",
                "-o",
                "/dev/null",
                "-w",
                "%{num_connects};",
                uri("/small.txt").toString(),
                uri("/big.bin").toString());
        assertThat(twice.out()).isEqualTo("1;0;");
    }
}
