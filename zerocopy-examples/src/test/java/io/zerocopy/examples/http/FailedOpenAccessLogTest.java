package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TruncatedSourceException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A response whose body transfer fails to open with an {@code IOException} (the file cut between
 * planning and the open, an I/O error reading its first bytes) closes the connection with nothing
 * sent, and the access log still gets one line for it: the planned status, 0 body bytes. The
 * threads engine always wrote it; the event loop wrote none. The failure is injected by a listener
 * whose {@code onStart}, called inside the library's open, throws: the library passes a listener's
 * exception to the caller as it is. A truncation is answered again from a fresh open, which fails
 * the same way: only that second answer is logged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedOpenAccessLogTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"THREADS, io", "THREADS, truncated", "EVENT_LOOP, io", "EVENT_LOOP, truncated"})
    void transferFailsToOpen_closedWithNothingSent_loggedOnce(ServerConfig.Engine kind, String failure)
            throws Exception {
        Files.writeString(dir.resolve("small.txt"), "small\n");
        IOException thrown = failure.equals("io")
                ? new IOException("injected: the file could not be read")
                : new TruncatedSourceException(0, 6, 0, null);
        TransferListener failsToOpen = new TransferListener() {
            @Override
            public void onStart(String strategy, long count) {
                throw FailedOpenAccessLogTest.<RuntimeException>unchecked(thrown);
            }
        };
        StringWriter access = new StringWriter();
        try (HttpServer server = HttpServer.start(ServerFixture.config(
                dir,
                kind,
                new AccessLog(new PrintWriter(access)),
                TransferOptions.builder().listener(failsToOpen).build()))) {
            try (RawClient client = new RawClient(server.address())) {
                client.send("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(client.readToClose()).as("nothing sent").isEmpty();
            }
            awaitLine(access, "\"GET /small.txt HTTP/1.1\" 200 0 ");
        }
        List<String> lines = lines(access);
        assertThat(lines).singleElement().asString().contains("\"GET /small.txt HTTP/1.1\" 200 0 ");
        double millis = Double.parseDouble(lines.get(0).substring(lines.get(0).lastIndexOf(' ') + 1));
        assertThat(millis).as("time from the request head").isBetween(0.0, 60_000.0);
    }

    /** Waits up to 10 s for a line that contains {@code text}: the client may see the close first. */
    private static void awaitLine(StringWriter access, String text) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lines(access).stream().noneMatch(line -> line.contains(text))) {
            assertThat(System.nanoTime())
                    .as("an access log line with %s by the deadline; log: %s", text, lines(access))
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // polling interval
        }
    }

    private static List<String> lines(StringWriter access) {
        synchronized (access.getBuffer()) {
            return access.toString().lines().toList();
        }
    }

    /** Throws a checked exception where only unchecked ones are declared, as a listener's may be. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E unchecked(Throwable e) throws E {
        throw (E) e;
    }
}
