package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A bug met while serving a request costs that connection, not the server, and the engines agree
 * on it: the client gets a 500 and the connection closes, the error log gets one line naming the
 * request and the exception, the access log the 500, and the next connection is served. The bug
 * here is a configuration the command line refuses: a forced {@code transferFrom}, which cannot
 * send a file to a socket, so that the library throws {@code IllegalArgumentException} before a
 * byte moves. The threads engine once let such an exception end the connection's thread with a
 * stack trace and no answer; the event loop closed the connection without a word.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnexpectedFailureTest {
    private static final String SMALL = "small\n";

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ServerConfig.Engine.class)
    void exceptionWhileServing_500_closed_loggedOnce_nextConnectionServed(ServerConfig.Engine kind) throws Exception {
        Files.writeString(dir.resolve("small.txt"), SMALL);
        StringWriter access = new StringWriter();
        ServerConfig config = ServerFixture.config(
                dir,
                kind,
                new AccessLog(new PrintWriter(access)),
                TransferOptions.builder().strategy("transferFrom").build());
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        ResponsePlanner planner = new ResponsePlanner(
                new TargetResolver(dir, false), new PrintStream(errors, true, StandardCharsets.UTF_8));
        try (HttpServer server = kind == ServerConfig.Engine.THREADS
                ? ThreadsEngine.start(config, planner)
                : EventLoopEngine.start(config, planner)) {
            try (RawClient client = new RawClient(server.address())) {
                RawClient.Reply reply = client.get("/small.txt");
                assertThat(reply.status()).isEqualTo(500);
                assertThat(reply.header("connection")).isEqualTo("close");
                assertThat(client.readToClose()).isEmpty();
            }
            try (RawClient client = new RawClient(server.address())) {
                client.send("HEAD /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(client.read(true).status())
                        .as("a HEAD sends no body")
                        .isEqualTo(200);
            }
        }
        String log = errors.toString(StandardCharsets.UTF_8);
        assertThat(log.lines())
                .singleElement()
                .asString()
                .startsWith("http-server: internal error serving GET /small.txt HTTP/1.1: "
                        + "java.lang.IllegalArgumentException: ");
        // the log's own thread writes its lines: wait until it has written every one logged
        assertThat(config.accessLog().drain(Duration.ofSeconds(30))).isTrue();
        synchronized (access.getBuffer()) {
            assertThat(access.toString()).contains("\"GET /small.txt HTTP/1.1\" 500 ");
        }
    }
}
