package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of transfers, successful and failed in every way that reaches a different cleanup path
 * (a file the library opened, a mapping, a pooled buffer, a selector), leave nothing behind: the
 * open file descriptors ({@code /proc/self/fd}) come back to their number before the run, and no
 * mapping of the test's files is left in {@code /proc/self/maps}. Mappings are checked at once (the
 * mmap strategy unmaps explicitly, not through the GC); descriptors are polled with a deadline, with
 * a GC in between, since the JDK frees some of its own objects late.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ResourceLeakTest {
    private static final long SEED = Seeds.announce(ResourceLeakTest.class);

    private static final int ROUNDS = 3000;
    private static final String[] STRATEGIES = {"auto", "transferTo", "mmap", "buffered"};

    @TempDir
    Path dir;

    @Test
    void copy_thousandsOfMixedTransfers_leaveNoDescriptorOrMapping() throws Exception {
        assumeTrue(ProcSelf.available(), "needs /proc/self (Linux)");
        Random random = new Random(SEED);
        byte[] content = TestFiles.randomBytes(200_000, SEED);
        Path source = TestFiles.write(dir.resolve("source"), content);
        TransferOptions[] copiers = new TransferOptions[STRATEGIES.length];
        for (int i = 0; i < STRATEGIES.length; i++) {
            TransferOptions.Builder options =
                    TransferOptions.builder().mappedWindow(64 << 10).bufferSize(32 << 10);
            copiers[i] = (STRATEGIES[i].equals("auto") ? options : options.strategy(STRATEGIES[i])).build();
        }

        // A warm-up round of every kind first, so that what the JDK opens once and keeps (its
        // selector provider, random sources, class files) is in the baseline.
        long sentToPeer = 0;
        try (LoopbackReceiver peer = LoopbackReceiver.draining(0)) {
            try (SocketChannel socket = peer.connectChannel()) {
                socket.configureBlocking(false);
                for (int kind = 0; kind < Kind.values().length; kind++) {
                    sentToPeer += run(Kind.values()[kind], copiers[kind % copiers.length], source, content, socket, 0);
                }
                int baselineFds = ProcSelf.openDescriptors();
                List<String> baselineTargets = ProcSelf.descriptorTargets();
                assertThat(ProcSelf.mappingsUnder(dir))
                        .as("mappings of the test's files before the run")
                        .isZero();

                for (int round = 0; round < ROUNDS; round++) {
                    Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
                    TransferOptions copier = copiers[random.nextInt(copiers.length)];
                    sentToPeer += run(kind, copier, source, content, socket, round);
                }

                // At once, before any GC could have freed a forgotten mapping: mmap unmaps explicitly.
                assertThat(ProcSelf.mappingsUnder(dir))
                        .as("mappings of the test's files left")
                        .isZero();
                int open = ProcSelf.awaitDescriptorsAtMost(baselineFds);
                assertThat(open)
                        .as(
                                "open file descriptors after %d transfers (seed %d): %s before, %s after",
                                ROUNDS, SEED, baselineTargets, ProcSelf.descriptorTargets())
                        .isLessThanOrEqualTo(baselineFds);
            }
            assertThat(peer.received().bytes())
                    .as("bytes the socket peer received")
                    .isEqualTo(sentToPeer);
        }
    }

    /** The transfers the run mixes; each returns what it sent to the shared socket. */
    enum Kind {
        FILE_TO_NEW_FILE,
        FILE_TO_SOCKET,
        SLICE_TO_STREAM,
        MISSING_SOURCE,
        EXISTING_TARGET,
        TARGET_FAILS_MID_TRANSFER,
        STALLED_TARGET
    }

    private long run(Kind kind, TransferOptions copier, Path source, byte[] content, SocketChannel socket, int round)
            throws Exception {
        switch (kind) {
            case FILE_TO_NEW_FILE -> {
                Path target = dir.resolve("copy-" + round);
                assertThat(Transfers.copy(source, target, copier)).isEqualTo(content.length);
                Files.delete(target);
                return 0;
            }
            case FILE_TO_SOCKET -> {
                assertThat(Transfers.copy(source, (WritableByteChannel) socket, copier))
                        .isEqualTo(content.length);
                return content.length;
            }
            case SLICE_TO_STREAM -> {
                try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
                    assertThat(Transfers.copy(channel, 1000, 50_000, Sinks.CHANNEL, copier))
                            .isEqualTo(50_000);
                }
                return 0;
            }
            case MISSING_SOURCE -> {
                assertThat(catchThrowable(() -> Transfers.copy(dir.resolve("missing"), Sinks.STREAM, copier)))
                        .isInstanceOf(NoSuchFileException.class);
                return 0;
            }
            case EXISTING_TARGET -> {
                assertThat(catchThrowable(() -> Transfers.copy(source, source.resolveSibling("source"), copier)))
                        .isNull(); // copying a file onto itself is a no-op
                Path existing = Files.write(dir.resolve("existing-" + round), new byte[] {1});
                assertThat(catchThrowable(() -> Transfers.copy(source, existing, copier)))
                        .isInstanceOf(FileAlreadyExistsException.class);
                Files.delete(existing);
                return 0;
            }
            case TARGET_FAILS_MID_TRANSFER -> {
                Throwable failure = catchThrowable(() -> Transfers.copy(source, new FailingAfter(70_000), copier));
                assertThat(failure).isInstanceOf(TransferException.class);
                assertThat(((TransferException) failure).bytesTransferred())
                        .isPositive()
                        .isLessThan(content.length);
                return 0;
            }
            case STALLED_TARGET -> {
                // Only every so often: each one waits out its (short) stall timeout.
                if (round % 50 != 0) {
                    return 0;
                }
                try (LoopbackReceiver gated = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                        SocketChannel stalled = gated.connectChannel()) {
                    stalled.configureBlocking(false);
                    TransferOptions impatient = copier.toBuilder()
                            .stallTimeout(Duration.ofMillis(20))
                            .build();
                    assertThat(catchThrowable(() -> Transfers.copy(source, (WritableByteChannel) stalled, impatient)))
                            .isInstanceOf(TransferTimeoutException.class);
                }
                return 0;
            }
            default -> throw new AssertionError(kind);
        }
    }

    /** Targets that are neither files nor sockets: they take everything and keep nothing. */
    private static final class Sinks {
        /** A stream: mmap and buffered copy into it in Java. */
        static final OutputStream STREAM = OutputStream.nullOutputStream();
        /** A JDK channel the library has no kernel path to. */
        static final WritableByteChannel CHANNEL = java.nio.channels.Channels.newChannel(STREAM);
    }

    /** A channel the library does not know, which fails once it has taken {@code limit} bytes. */
    private static final class FailingAfter implements WritableByteChannel {
        private final long limit;
        private long taken;

        FailingAfter(long limit) {
            this.limit = limit;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (taken >= limit) {
                throw new IOException("target failed after " + taken + " bytes");
            }
            int n = (int) Math.min(src.remaining(), Math.min(8192, limit - taken));
            src.position(src.position() + n);
            taken += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
