package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.Copier;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One sparse file a little over 2 GiB, with random blocks straddling the places where 32-bit and
 * per-call limits bite: Linux's per-call cap 0x7ffff000, 2^31 and the end. It must arrive intact
 * over loopback (the engine splits at the per-call cap) and through mmap windows of 1 GiB.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BeyondTwoGigabytesTest {
    private static final long SEED = Seeds.announce(BeyondTwoGigabytesTest.class);

    /** 2 GiB + 12345: past both 0x7ffff000 and 2^31, and not a multiple of a page. */
    private static final long SIZE = (1L << 31) + 12345;

    /** Linux's MAX_RW_COUNT: no read, write, sendfile or copy_file_range moves more in one call. */
    private static final long LINUX_PER_CALL_CAP = 0x7ffff000L;

    /** Random blocks are 4 KiB + 7 bytes, so they never line up with pages. */
    private static final int BLOCK = 4096 + 7;

    /** The source and target share the disk; the target is not sparse. Keep a wide margin. */
    private static final long REQUIRED_FREE_BYTES = 8L << 30;

    @TempDir
    static Path dir;

    private static Path file;
    private static long fileCrc;

    @BeforeAll
    static void createSparseFile() throws Exception {
        long free = Files.getFileStore(dir).getUsableSpace();
        assumeTrue(free >= REQUIRED_FREE_BYTES, () -> "skipped: needs " + (REQUIRED_FREE_BYTES >> 30)
                + " GiB free in " + dir + " for a 2 GiB sparse file and its dense copy, has " + (free >> 20) + " MiB");
        file = TestFiles.sparse(dir.resolve("sparse-2g"), SIZE, SEED, BLOCK,
                0,
                LINUX_PER_CALL_CAP - 10_000, LINUX_PER_CALL_CAP - BLOCK / 2, LINUX_PER_CALL_CAP + 1,
                (1L << 31) - 10_000, (1L << 31) - BLOCK / 2, (1L << 31) + 1,
                SIZE - BLOCK);
        fileCrc = TestFiles.crc32c(file);
    }

    @AfterAll
    static void deleteSparseFile() throws Exception {
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Test
    @DisplayName("copy_beyondTwoGigabytesToLoopbackSocket (transferTo split at the per-call cap)")
    void copy_beyondTwoGigabytesToLoopbackSocket() throws Exception {
        RecordingListener listener = new RecordingListener();
        // forced: on Linux the default for a socket is the buffered strategy (docs/benchmarks.md)
        Copier copier = Transfers.with(TransferOptions.builder().strategy("transferTo").listener(listener).build());
        long sent;
        LoopbackReceiver.Received received;
        // System buffer sizes here: a 16 KiB window would make 2 GiB take far too long.
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            try (SocketChannel channel = receiver.connectChannel()) {
                sent = copier.copy(file, (WritableByteChannel) channel);
            }
            received = receiver.received();
        }

        assertThat(sent).as("returned count").isEqualTo(SIZE);
        assertThat(received.bytes()).as("bytes the peer received").isEqualTo(SIZE);
        assertThat(received.crc32c()).as("CRC32C of what the peer received (seed " + SEED + ")").isEqualTo(fileCrc);
        assertThat(listener.strategy()).isEqualTo("transferTo");
        assertThat(listener.largestStep()).as("largest single step").isLessThanOrEqualTo(LINUX_PER_CALL_CAP);
        assertThat(listener.steps()).as("steps: more than one call is needed").isGreaterThanOrEqualTo(2);
        assertThat(listener.lastProgress()).isEqualTo(SIZE);
    }

    @Test
    @DisplayName("copy_beyondTwoGigabytesFileToFileMapped (mmap forced, 1 GiB windows)")
    void copy_beyondTwoGigabytesFileToFileMapped() throws Exception {
        long window = 1L << 30;
        RecordingListener listener = new RecordingListener();
        Copier copier = Transfers.with(TransferOptions.builder()
                .strategy("mmap").mappedWindow(window).listener(listener).build());
        Path target = dir.resolve("mapped-copy");
        try {
            long copied = copier.copy(file, target);

            assertThat(copied).as("returned count").isEqualTo(SIZE);
            assertThat(Files.size(target)).as("target size").isEqualTo(SIZE);
            assertThat(TestFiles.crc32c(target)).as("CRC32C of the copy (seed " + SEED + ")").isEqualTo(fileCrc);
            assertThat(listener.strategy()).isEqualTo("mmap");
            // Each step writes from one mapping, which never exceeds the window.
            assertThat(listener.largestStep()).as("largest single step").isLessThanOrEqualTo(window);
            assertThat(listener.steps()).as("steps: at least one per window").isGreaterThanOrEqualTo(3);
        } finally {
            Files.deleteIfExists(target);
        }
    }
}
