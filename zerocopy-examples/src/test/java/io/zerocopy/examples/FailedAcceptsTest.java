package io.zerocopy.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server and the relay while every accept fails, as it does out of descriptors: they keep
 * trying, a pause apart, and say so at most once a second. Counted, not timed: in a window of 20
 * pauses a pausing loop tries about 21 times and a spinning one hundreds of thousands, so the bound
 * of {@value #MOST_ATTEMPTS} holds on a slow, busy machine and fails at once without the pause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedAcceptsTest {

    /** How long the attempts are counted, from the first: 20 pauses (one second). */
    private static final long WINDOW_NANOS = 20 * FailedAccepts.PAUSE_NANOS;

    /** Attempts allowed in the window: about 50 times what 20 pauses allow. */
    private static final int MOST_ATTEMPTS = 1000;

    private static final String EMFILE = "Too many open files";

    @Test
    void server_whileAcceptFails_triesAgainAPauseApart() throws Exception {
        FailingChannel channel = new FailingChannel();
        try (Server server = new Server(InetAddress.getLoopbackAddress(), 0, false, c -> {})) {
            server.start(channel);
            assertTriesAgainAPauseApart("server", channel);
        }
    }

    @Test
    @SuppressWarnings("try") // relay: open only so that it accepts
    void relay_whileAcceptFails_triesAgainAPauseApart() throws Exception {
        FailingChannel channel = new FailingChannel();
        InetSocketAddress unused = new InetSocketAddress(InetAddress.getLoopbackAddress(), 9);
        try (Relay relay =
                Relay.start(channel, unused, TransferOptions.builder().build(), c -> {})) {
            assertTriesAgainAPauseApart("relay", channel);
        }
    }

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

    /** Waits for a second attempt, then fails if {@value #MOST_ATTEMPTS} are made within the window. */
    private static void assertTriesAgainAPauseApart(String subject, FailingChannel channel)
            throws InterruptedException {
        assertThat(channel.secondAttempt.await(30, TimeUnit.SECONDS))
                .as("an accept after the first failed")
                .isTrue();
        long end = channel.firstAttemptNanos + WINDOW_NANOS;
        while (channel.attempts.get() < MOST_ATTEMPTS && System.nanoTime() - end < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval, not synchronisation
        }
        long attempts = channel.attempts.get();
        System.out.println("FailedAcceptsTest: " + subject + ": " + attempts + " accepts attempted in the window");
        assertThat(attempts)
                .as(
                        "accepts attempted within %d ms of the first, at %d ms a pause",
                        TimeUnit.NANOSECONDS.toMillis(WINDOW_NANOS),
                        TimeUnit.NANOSECONDS.toMillis(FailedAccepts.PAUSE_NANOS))
                .isLessThan(MOST_ATTEMPTS);
    }

    /** A listening channel whose every accept fails as the JDK's does out of descriptors; counts them. */
    private static final class FailingChannel extends ServerSocketChannel {
        final AtomicLong attempts = new AtomicLong();
        final CountDownLatch secondAttempt = new CountDownLatch(2);
        volatile long firstAttemptNanos;

        FailingChannel() {
            super(SelectorProvider.provider());
        }

        @Override
        public SocketChannel accept() throws IOException {
            if (attempts.incrementAndGet() == 1) {
                firstAttemptNanos = System.nanoTime();
            }
            secondAttempt.countDown();
            throw new IOException(EMFILE);
        }

        @Override
        public SocketAddress getLocalAddress() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        }

        @Override
        public ServerSocketChannel bind(SocketAddress local, int backlog) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> ServerSocketChannel setOption(SocketOption<T> name, T value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> T getOption(SocketOption<T> name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Set<SocketOption<?>> supportedOptions() {
            return Set.of();
        }

        @Override
        public ServerSocket socket() {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void implCloseSelectableChannel() {
            // nothing open
        }

        @Override
        protected void implConfigureBlocking(boolean block) {
            // always blocking
        }
    }
}
