package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * A slice of a {@code FileChannel} that is not the JDK's own (another file system provider's),
 * read at explicit positions so that the channel's own position is never moved. Its kind is
 * {@code OTHER}: the buffered strategy reads it like any channel, for exactly the slice's count.
 * Closing the view does not close the file.
 */
final class FileSliceChannel implements ReadableByteChannel {
    private final FileChannel file;
    private final long end;
    private long position;
    private boolean open = true;

    FileSliceChannel(FileChannel file, long position, long count) {
        this.file = file;
        this.position = position;
        this.end = position + count;
    }

    /** The file underneath, for its size when the slice ends early. */
    FileChannel file() {
        return file;
    }

    long end() {
        return end;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int n = file.read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public boolean isOpen() {
        return open && file.isOpen();
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public String toString() {
        return "file " + file + " from position " + position;
    }
}
