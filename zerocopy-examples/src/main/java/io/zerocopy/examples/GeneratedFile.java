package io.zerocopy.examples;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/** Writes files of pseudo-random content and checksums files, for the example programs. */
final class GeneratedFile {
    private GeneratedFile() {}

    /** Creates {@code file} with {@code size} bytes of seeded pseudo-random content; returns its CRC32C. */
    static long create(Path file, long size, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        CRC32C crc = new CRC32C();
        try (FileChannel out = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long left = size; left > 0; ) {
                chunk.clear();
                while (chunk.remaining() >= Long.BYTES) {
                    chunk.putLong(random.nextLong());
                }
                chunk.flip();
                chunk.limit((int) Math.min(chunk.limit(), left));
                crc.update(chunk.array(), 0, chunk.limit());
                while (chunk.hasRemaining()) {
                    left -= out.write(chunk);
                }
            }
        }
        return crc.getValue();
    }
}
