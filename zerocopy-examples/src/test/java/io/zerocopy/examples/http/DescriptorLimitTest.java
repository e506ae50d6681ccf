package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code http-server} in a child JVM under {@code ulimit -n 256} with its default
 * {@code --max-connections} (1024), and {@value #CONNECTIONS} keep-alive connections at once, held
 * open as wrk holds them, each asking for one readable 4 KiB file: none is answered 403 or 404 (the
 * server once took every descriptor for connections and reported its failed opens as "not a regular
 * file"), at most 5% get anything but a 200, and a request afterwards gets a 200. The server warns
 * at start that the limit serves fewer connections than asked.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DescriptorLimitTest {

    /** Connections opened at once: well over what 256 descriptors serve, within the listen backlog. */
    static final int CONNECTIONS = 400;

    private static final int SIZE = 4096;
    /** Bounds the wait for all answers: at one second's idle timeout a wave, 400 take about 12 s. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(90);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"threads", "event-loop"})
    void manyConnections_underASmallDescriptorLimit_areServedNotForbidden(String engine) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash for ulimit");
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.write(root.resolve("a.bin"), new byte[SIZE]);
        try (ServerProcess server = ServerProcess.start(
                List.of("/bin/bash", "-c", "ulimit -n 256 && exec \"$@\"", "bash"),
                List.of("-Xshare:off"),
                dir.resolve("stderr.txt"),
                "--root",
                root.toString(),
                "--engine",
                engine,
                "--idle-timeout",
                "1")) {
            InetSocketAddress address = server.address();

            Map<Integer, Integer> statuses = requestAtOnce(address, CONNECTIONS);

            String stderr = server.stderr();
            System.out.println("DescriptorLimitTest " + engine + ": " + statuses + " (status: connections; 0: none)");
            assertThat(statuses)
                    .as("statuses (0: no response); stderr: %s", stderr)
                    .doesNotContainKeys(403, 404);
            int ok = statuses.getOrDefault(200, 0);
            assertThat(CONNECTIONS - ok)
                    .as("answers other than 200 of %d: %s", CONNECTIONS, statuses)
                    .isLessThanOrEqualTo(CONNECTIONS / 20);
            assertThat(requestAtOnce(address, 1)).as("a request afterwards").isEqualTo(Map.of(200, 1));
            assertThat(stderr)
                    .as("the warning at start")
                    .contains("http-server: warning: --max-connections 1024 exceeds what the open file limit allows");
        }
    }

    /**
     * Opens {@code n} connections to {@code address}, sends each one {@code GET /a.bin} (keep-alive),
     * then reads every answer at once on one selector until each is whole or closed, or the deadline
     * has passed, holding every connection open till then; returns how many got each status (0: none,
     * or cut short). The server's idle timeout closes the connections it has answered, and so makes
     * room for those waiting in its backlog.
     */
    private static Map<Integer, Integer> requestAtOnce(InetSocketAddress address, int n) throws IOException {
        byte[] request = ("GET /a.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<Answer> answers = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            try {
                for (int i = 0; i < n; i++) {
                    // connected by the kernel from the listen backlog, accepted by the server or not
                    SocketChannel channel = SocketChannel.open(address);
                    Answer answer = new Answer(channel);
                    answers.add(answer);
                    ByteBuffer out = ByteBuffer.wrap(request);
                    while (out.hasRemaining()) {
                        channel.write(out);
                    }
                    channel.configureBlocking(false);
                    channel.register(selector, SelectionKey.OP_READ, answer);
                }
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                int open = n;
                while (open > 0 && System.nanoTime() < deadline) {
                    selector.select(1000);
                    for (SelectionKey key : selector.selectedKeys()) {
                        Answer answer = (Answer) key.attachment();
                        if (answer.read()) {
                            key.cancel(); // held open, as wrk holds its connections, until all are answered
                            open--;
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } finally {
                for (Answer answer : answers) {
                    answer.channel.close();
                }
            }
        }
        for (Answer answer : answers) {
            statuses.merge(answer.status(), 1, Integer::sum);
        }
        return statuses;
    }

    /** One connection's answer as it arrives. */
    private static final class Answer {
        final SocketChannel channel;
        private final ByteBuffer in = ByteBuffer.allocate(SIZE + 1024);
        private boolean whole;

        Answer(SocketChannel channel) {
            this.channel = channel;
        }

        /** Reads what has arrived; true once the answer is whole or the connection ended. */
        boolean read() {
            try {
                int n = channel.read(in);
                whole = complete();
                return whole || n < 0 || !in.hasRemaining();
            } catch (IOException reset) {
                return true;
            }
        }

        /** Whether the head and the body its Content-Length announces have arrived. */
        private boolean complete() {
            String text = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            Matcher length = Pattern.compile("(?i)\r\ncontent-length: *(\\d+)").matcher(text);
            return end >= 0 && length.find() && in.position() >= end + 4 + Integer.parseInt(length.group(1));
        }

        /** The status of a whole answer, else 0. */
        int status() {
            if (!whole) {
                return 0;
            }
            String text = new String(in.array(), 0, 12, StandardCharsets.ISO_8859_1);
            return text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : 0;
        }
    }
}
