package io.zerocopy.benchmarks;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The loops a caller writes without the library, in one place, so that every benchmark that
 * compares the library with "the raw JDK" measures the same code. They loop over short counts and
 * nothing more: no truncation check (the benchmarks' files do not change under them), no timeout.
 * None closes what it is given; the {@code Path} forms open and close their file.
 */
public final class RawLoops {
    /** The classic loop's buffer: a 4 KiB heap array, as in the 2008 zero-copy experiment. */
    public static final int CLASSIC_BUFFER = 4096;

    private RawLoops() {}

    /**
     * {@code FileChannel.transferTo} from position 0 until {@code count} bytes are sent, asking each
     * time for all that is left (sendfile or copy_file_range on Linux). Returns {@code count}.
     */
    public static long transferTo(FileChannel file, long count, WritableByteChannel target) throws IOException {
        long position = 0;
        while (position < count) {
            position += file.transferTo(position, count - position, target);
        }
        return position;
    }

    /** Opens {@code source} and sends all of it with {@link #transferTo(FileChannel, long, WritableByteChannel)}. */
    public static long transferTo(Path source, WritableByteChannel target) throws IOException {
        try (FileChannel file = FileChannel.open(source, StandardOpenOption.READ)) {
            return transferTo(file, file.size(), target);
        }
    }

    /**
     * {@code FileChannel.transferFrom} from position 0 until it moves nothing more (the source's end
     * of stream). Returns the bytes written.
     */
    public static long transferFrom(ReadableByteChannel source, FileChannel target) throws IOException {
        long position = 0;
        for (long n; (n = target.transferFrom(source, position, Long.MAX_VALUE - position)) > 0; ) {
            position += n;
        }
        return position;
    }

    /**
     * Maps {@code source} in windows of {@code window} bytes and writes each one whole. The mappings
     * are left to the garbage collector, as plain JDK code has to. Returns the file's size.
     */
    public static long mmap(Path source, WritableByteChannel target, long window) throws IOException {
        try (FileChannel file = FileChannel.open(source, StandardOpenOption.READ)) {
            long size = file.size();
            for (long position = 0; position < size; position += window) {
                MappedByteBuffer mapped =
                        file.map(FileChannel.MapMode.READ_ONLY, position, Math.min(window, size - position));
                while (mapped.hasRemaining()) {
                    target.write(mapped);
                }
            }
            return size;
        }
    }

    /** The classic loop: reads into a 4 KiB array and writes what was read, to the end of {@code in}. */
    public static long classic4k(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[CLASSIC_BUFFER];
        long total = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            out.write(buffer, 0, n);
            total += n;
        }
        return total;
    }

    /** Opens {@code source} as a {@code FileInputStream} and copies it with {@link #classic4k(InputStream, OutputStream)}. */
    public static long classic4k(Path source, OutputStream out) throws IOException {
        try (InputStream in = new FileInputStream(source.toFile())) {
            return classic4k(in, out);
        }
    }
}
