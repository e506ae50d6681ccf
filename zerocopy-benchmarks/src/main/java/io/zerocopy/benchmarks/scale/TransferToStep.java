package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The event-loop reference: one raw {@code FileChannel.transferTo} per write readiness, asking for
 * all that is left (sendfile on Linux). No truncation check: the benchmark's files do not change.
 */
final class TransferToStep implements Contender.Step {
    private final FileChannel file;
    private final SocketChannel target;
    private final long size;
    private long position;

    TransferToStep(Path source, SocketChannel target) throws IOException {
        this.file = FileChannel.open(source, StandardOpenOption.READ);
        this.target = target;
        this.size = file.size();
    }

    @Override
    public boolean advance() throws IOException {
        position += file.transferTo(position, size - position, target);
        return position >= size;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    @Override
    public String toString() {
        return "transferTo step at " + position + " of " + size;
    }
}
