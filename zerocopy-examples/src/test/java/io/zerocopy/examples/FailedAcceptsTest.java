package io.zerocopy.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What an accepting thread says after a failed accept: at most one line a second. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedAcceptsTest {

    private static final String EMFILE = "Too many open files";

    @Test
    void log_atMostOneLineASecond_countingTheFailuresSince() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        AtomicLong now = new AtomicLong(-123);
        FailedAccepts failed = new FailedAccepts("server", new PrintStream(log, true, UTF_8), now::get);
        IOException e = new IOException(EMFILE);

        failed.pauseAfter(e); // the first is logged
        now.addAndGet(FailedAccepts.LOG_INTERVAL_NANOS / 2);
        failed.pauseAfter(e);
        now.addAndGet(FailedAccepts.LOG_INTERVAL_NANOS / 2 - 1);
        failed.pauseAfter(e);
        now.addAndGet(1); // a second after the first line
        failed.pauseAfter(e);

        assertThat(log.toString(UTF_8).lines())
                .containsExactly(
                        "server: accept failed, accepting again in 50 ms: " + EMFILE
                                + " (1 failed accept since the last line)",
                        "server: accept failed, accepting again in 50 ms: " + EMFILE
                                + " (3 failed accepts since the last line)");
    }
}
