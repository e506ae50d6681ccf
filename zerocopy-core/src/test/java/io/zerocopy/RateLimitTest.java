package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rate limit is a ceiling: at no point may more bytes have moved than the rate allows for the
 * time since the start, plus the one step (a tenth of a second's worth) that is reported before the
 * engine pauses for it. A slow machine only makes this more true, so the check is a guarantee and
 * not a timing threshold; how close to the rate a transfer gets is the benchmarks' business.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RateLimitTest {

    private static final long RATE = 1_000_000;

    @Test
    void copy_withRateLimit_neverAheadOfTheRate() throws Exception {
        byte[] data = new byte[350_000];
        List<long[]> progress = new ArrayList<>();
        long[] start = new long[1];
        TransferOptions options = TransferOptions.builder()
                .rateLimit(RATE)
                .listener(new TransferListener() {
                    @Override
                    public void onProgress(long bytesSoFar) {
                        progress.add(new long[] {bytesSoFar, System.nanoTime() - start[0]});
                    }
                })
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        start[0] = System.nanoTime();
        long moved = Transfers.copy(new ByteArrayInputStream(data), out, options);
        long elapsed = System.nanoTime() - start[0];

        assertThat(moved).isEqualTo(data.length);
        assertThat(out.size()).isEqualTo(data.length);
        assertThat(progress).hasSizeGreaterThanOrEqualTo(4);
        for (long[] p : progress) {
            double allowed = RATE * (p[1] / 1e9) + RATE / 10.0;
            assertThat((double) p[0]).as("bytes after %d ns", p[1]).isLessThanOrEqualTo(allowed);
        }
        assertThat(elapsed)
                .as("the whole copy cannot beat the rate")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(data.length * 1000L / RATE));
    }

    /**
     * A paced transfer of {@code data.length} bytes cannot end before the rate allows all but its
     * first step ({@code RATE / 10} bytes), so every way of reading its result's time must see at
     * least that: a listener of a blocking copy (whose own result is dropped), a transfer the caller
     * drives, and {@code copyAsync}. A clock that never ran reads zero.
     */
    /**
     * The schedule starts at the first {@code advance}, not at {@code open}: a transfer opened and
     * left for half a second moves one step on its first advance, not the half second's worth the
     * time since the open would allow. Before the fix it moved six steps at once.
     */
    @Test
    void open_thenAdvancedLater_theScheduleStartsAtTheFirstAdvance(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("source"), new byte[1000]);
        TransferOptions paced = TransferOptions.builder().rateLimit(100).build(); // steps of 10 bytes
        try (LoopbackPair pair = LoopbackPair.open()) {
            pair.sender.configureBlocking(false); // one advance may then run several steps
            Transfer t = Transfers.open(file, pair.sender, paced);
            long opened = System.nanoTime();
            while (System.nanoTime() - opened < TimeUnit.MILLISECONDS.toNanos(500)) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // the time the case needs
            }

            assertThat(t.advance()).isEqualTo(10);
            assertThat(t.interestOps()).isZero();
            assertThat(t.delayNanos()).isPositive();
            t.close();
        }
    }

    /**
     * An interrupt during a pause fails the transfer at the next advance, as it does between any two
     * steps. Before the fix that advance reported the pause (0), and a blocking copy spun on it, at
     * full CPU, until the pause ran out.
     */
    @Test
    void advance_interruptedDuringAPause_failsAtOnce(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("source"), new byte[1000]);
        TransferOptions paced = TransferOptions.builder().rateLimit(1).build(); // steps of a byte, a second apart
        try (LoopbackPair pair = LoopbackPair.open()) {
            Transfer t = Transfers.open(file, pair.sender, paced);
            assertThat(t.advance()).isEqualTo(1); // the next byte is a second away

            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(t::advance)
                        .isInstanceOf(TransferException.class)
                        .hasCauseInstanceOf(InterruptedIOException.class);
            } finally {
                Thread.interrupted();
            }
            assertThat(t.bytesTransferred()).isEqualTo(1);
        }
    }

    @Test
    void elapsed_ofAPacedTransfer_coversItsSteps_whoeverReadsIt(@TempDir Path dir) throws Exception {
        byte[] data = new byte[350_000];
        Path file = Files.write(dir.resolve("paced.bin"), data);
        Duration atLeast = Duration.ofNanos((data.length - RATE / 10) * 1_000_000_000L / RATE);
        CompletableFuture<TransferResult> heard = new CompletableFuture<>();
        TransferOptions listened = TransferOptions.builder()
                .rateLimit(RATE)
                .listener(new TransferListener() {
                    @Override
                    public void onComplete(TransferResult result) {
                        heard.complete(result);
                    }
                })
                .build();
        TransferOptions paced = TransferOptions.builder().rateLimit(RATE).build();

        Transfers.copy(file, Channels.newChannel(new ByteArrayOutputStream()), listened);
        Duration byListener = heard.get(1, TimeUnit.SECONDS).elapsed();

        Duration byCaller;
        try (Transfer t = Transfers.open(file, Channels.newChannel(new ByteArrayOutputStream()), paced)) {
            while (!t.isDone()) {
                t.advance();
                LockSupport.parkNanos(t.delayNanos());
            }
            byCaller = t.result().elapsed();
        }

        Duration byFuture = Transfers.copyAsync(
                        file, Channels.newChannel(new ByteArrayOutputStream()), Runnable::run, paced)
                .get(10, TimeUnit.SECONDS)
                .elapsed();

        assertThat(byListener).as("a listener's").isGreaterThanOrEqualTo(atLeast);
        assertThat(byCaller).as("a driven transfer's").isGreaterThanOrEqualTo(atLeast);
        assertThat(byFuture).as("copyAsync's").isGreaterThanOrEqualTo(atLeast);
    }

    /**
     * Every step of a region with a prefix is within a tenth of a second's worth, the prefix's own
     * included: a prefix larger than a step, then no body, one that would go whole with it (50,000
     * bytes) or one whose first chunk would go with it (150,000).
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 50_000, 150_000})
    void region_withPrefix_eachStepWithinTheRate(int count, @TempDir Path dir) throws Exception {
        long rate = 200_000;
        Random random = new Random(count);
        byte[] head = new byte[25_000];
        byte[] body = new byte[count];
        random.nextBytes(head);
        random.nextBytes(body);
        Path file = Files.write(dir.resolve("body.bin"), body);
        List<Long> steps = new ArrayList<>();
        long[] last = new long[1];
        TransferOptions options = TransferOptions.builder()
                .rateLimit(rate)
                .listener(new TransferListener() {
                    @Override
                    public void onProgress(long bytesSoFar) {
                        steps.add(bytesSoFar - last[0]);
                        last[0] = bytesSoFar;
                    }
                })
                .build();

        try (FileChannel fc = FileChannel.open(file);
                LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<byte[]> received = pair.drainInBackground();
            FileRegion region = FileRegion.of(fc, 0, count)
                    .withPrefix(ByteBuffer.wrap(head, 0, 12_000), ByteBuffer.wrap(head, 12_000, 13_000));
            long moved = Transfers.copy(region, pair.sender, options);
            pair.sender.shutdownOutput();

            assertThat(moved).isEqualTo(head.length + count);
            byte[] expected = new byte[head.length + count];
            System.arraycopy(head, 0, expected, 0, head.length);
            System.arraycopy(body, 0, expected, head.length, count);
            ByteArrays.assertSameBytes("received", received.get(10, TimeUnit.SECONDS), expected);
        }
        assertThat(steps).as("bytes per step").allSatisfy(n -> assertThat(n).isBetween(1L, rate / 10));
    }
}
