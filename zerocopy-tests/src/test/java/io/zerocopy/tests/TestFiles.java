package io.zerocopy.tests;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.opentest4j.TestAbortedException;

/** Generated test files (random content from a seed, and sparse files) and their checksums. */
final class TestFiles {

    /**
     * What the default selection picks for a file sent to a loopback socket on Linux above the
     * read-ahead size (Selection's table): sendfile, the least sender CPU per byte (docs/scale.md).
     */
    static final String DEFAULT_FILE_TO_SOCKET = "transferTo";

    /**
     * The default for {@code count} bytes of a file to a loopback socket: a read and a write up to
     * 8 KiB (docs/fixed-cost.md), sendfile above.
     */
    static String defaultFileToSocket(long count) {
        return count <= 8 * 1024 ? "buffered" : DEFAULT_FILE_TO_SOCKET;
    }

    /** The sizes every matrix test covers: empty, one byte, just past a page, just past 1 MiB, 9 MiB. */
    static final long[] SIZES = {0, 1, 4096 + 1, (1 << 20) + 3, 9L << 20};

    private static final int CHUNK = 1 << 20;

    private TestFiles() {}

    /** {@code size} bytes drawn from {@code new Random(seed)}. */
    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Writes {@code content} to a new file {@code file}; returns the file. */
    /** A FIFO made at {@code fifo} by {@code mkfifo}; the test is skipped where it cannot be made. */
    static Path fifo(Path fifo) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            throw new TestAbortedException("mkfifo is not available: " + e.getMessage(), e);
        }
        assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo failed");
        return fifo;
    }

    static Path write(Path file, byte[] content) throws IOException {
        return Files.write(file, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /**
     * Creates a sparse file of {@code size} bytes: a hole everywhere except for blocks of
     * {@code blockSize} random bytes starting at each of {@code offsets} (cut off at the end of the
     * file). The holes cost no disk space and read as zeros.
     */
    static Path sparse(Path file, long size, long seed, int blockSize, long... offsets) throws IOException {
        Random random = new Random(seed);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
            for (long offset : offsets) {
                if (offset < 0 || offset >= size) {
                    throw new IllegalArgumentException("offset: " + offset + " (expected: 0.." + (size - 1) + ")");
                }
                byte[] block = new byte[(int) Math.min(blockSize, size - offset)];
                random.nextBytes(block);
                raf.seek(offset);
                raf.write(block);
            }
        }
        return file;
    }

    /** CRC32C of the whole file, read from disk. */
    static long crc32c(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return crc32c(channel, 0, channel.size());
        }
    }

    /** CRC32C of {@code count} bytes of the file from {@code position}, read with positional reads. */
    static long crc32c(FileChannel channel, long position, long count) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK);
        long done = 0;
        while (done < count) {
            buffer.clear();
            buffer.limit((int) Math.min(CHUNK, count - done));
            int n = channel.read(buffer, position + done);
            if (n < 0) {
                throw new IOException(
                        "file ended at " + (position + done) + ", expected " + (position + count) + " bytes");
            }
            buffer.flip();
            crc.update(buffer);
            done += n;
        }
        return crc.getValue();
    }

    /** CRC32C of {@code length} bytes of {@code bytes} from {@code offset}. */
    static long crc32c(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return crc.getValue();
    }

    static long crc32c(byte[] bytes) {
        return crc32c(bytes, 0, bytes.length);
    }
}
