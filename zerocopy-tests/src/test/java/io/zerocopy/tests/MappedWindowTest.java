package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code mappedWindow} at the top of its documented range maps: Java 22 and later wrap an arena's
 * mapping as a buffer only up to {@code Integer.MAX_VALUE} less 8 bytes, and the mmap strategy
 * failed there with "Segment is too large to wrap as ByteBuffer" before it moved a byte. A sparse
 * file just over 2 GiB (no disk space) goes to a channel that counts what it is handed without
 * reading it, so no page is touched.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MappedWindowTest {
    private static final long SIZE = Integer.MAX_VALUE + 4097L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {Integer.MAX_VALUE, Integer.MAX_VALUE - 7, Integer.MAX_VALUE - 8})
    void mmap_windowAtTheTopOfItsRange_sendsTheWholeFile(long window) throws Exception {
        Path sparse = dir.resolve("sparse");
        try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
            file.setLength(SIZE);
        }
        TransferOptions mmap =
                TransferOptions.builder().strategy("mmap").mappedWindow(window).build();
        Counter counter = new Counter();

        try (FileChannel source = FileChannel.open(sparse, StandardOpenOption.READ)) {
            assertThat(Transfers.copy(source, 0, SIZE, counter, mmap)).isEqualTo(SIZE);
        }
        assertThat(counter.handed).isEqualTo(SIZE);
    }

    /** Takes every byte it is handed without reading one. */
    private static final class Counter implements WritableByteChannel {
        long handed;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            handed += n;
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
