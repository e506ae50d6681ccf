package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The access log never holds up serving: a log whose reader has stopped (a pipe nobody reads)
 * takes every line without waiting, drops what it cannot keep and says how many once its reader
 * comes back; and the server's last line at a stop waits for such an output only a bounded time.
 * Before, every serving thread, and the shutdown hook, waited on the full pipe for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AccessLogTest {
    private static final Response OK =
            new Response(200, ByteBuffer.allocate(0), null, null, 0, 0, false, new Request("GET", "/a.bin", 1), 0);

    @Test
    void aReaderThatStopped_holdsUpNoLogger_andHearsOfTheDroppedLinesOnceBack() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        StringWriter written = new StringWriter();
        AccessLog log = new AccessLog(new PrintWriter(new HeldWriter(written, reading)));
        InetSocketAddress client = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000);
        int logged = 2 * AccessLog.QUEUE_LINES;
        for (int i = 0; i < logged; i++) {
            log.log(client, OK, 1, System.nanoTime()); // returns though nothing can be written
        }
        assertThat(log.drain(Duration.ofMillis(100)))
                .as("nothing written while the reader is away")
                .isFalse();

        reading.countDown();
        assertThat(log.drain(Duration.ofSeconds(30)))
                .as("all written once it reads again")
                .isTrue();
        String text;
        synchronized (written.getBuffer()) {
            text = written.toString();
        }
        long lines = text.lines()
                .filter(l -> l.contains("\"GET /a.bin HTTP/1.1\" 200 1 "))
                .count();
        String note = text.lines()
                .filter(l -> l.contains("access log lines dropped"))
                .findFirst()
                .orElse("");
        assertThat(note)
                .as(text.length() > 2000 ? text.substring(text.length() - 2000) : text)
                .isNotEmpty();
        long dropped = Long.parseLong(note.split(" ")[1]);
        assertThat(lines + dropped)
                .as("every line written or counted as dropped")
                .isEqualTo(logged);
        assertThat(lines).as("the queue's worth written").isGreaterThanOrEqualTo(AccessLog.QUEUE_LINES);
    }

    @Test
    void theLastLine_waitsForAnOutputNobodyReadsOnlyABoundedTime() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        PrintWriter blocked = new PrintWriter(new HeldWriter(new StringWriter(), never));
        HttpServerCommand.printWithin(blocked, "http-server: stopped", Duration.ofMillis(200)); // returns
        never.countDown();
        StringWriter written = new StringWriter();
        PrintWriter free = new PrintWriter(written);
        HttpServerCommand.printWithin(free, "http-server: stopped", Duration.ofSeconds(30));
        assertThat(written.toString()).isEqualTo("http-server: stopped" + System.lineSeparator());
    }

    /** A writer whose writes wait until {@code reading} opens, as a write into a full pipe waits for its reader. */
    private static final class HeldWriter extends Writer {
        private final StringWriter into;
        private final CountDownLatch reading;

        HeldWriter(StringWriter into, CountDownLatch reading) {
            this.into = into;
            this.reading = reading;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            while (reading.getCount() > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the reader is away
            }
            synchronized (into.getBuffer()) {
                into.write(chars, offset, length);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
