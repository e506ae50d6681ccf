package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A {@link NativeFile} for the unit tests, which run the Java 17 classes: reads through a JDK channel
 * over {@code path}, so that selection and the native strategy's step can be tested without FFM.
 */
class FakeNativeFile extends NativeFile {
    private final FileChannel channel;
    private final BasicFileAttributes attributes;

    FakeNativeFile(Path path) throws IOException {
        super(path);
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        this.attributes = Files.readAttributes(path, BasicFileAttributes.class);
    }

    @Override
    BasicFileAttributes attributes() {
        return attributes;
    }

    @Override
    boolean isFifo() {
        return false;
    }

    @Override
    int readFifo(ByteBuffer dst) {
        throw new UnsupportedOperationException("a fake reads regular files only");
    }

    @Override
    int descriptor() {
        throw new UnsupportedOperationException("a fake has no descriptor");
    }

    @Override
    void closeDescriptor() throws IOException {
        channel.close();
    }

    @Override
    void checkPosition(long newPosition) throws IOException {
        channel.position(newPosition); // the JDK's own check; reads here are positional
    }

    @Override
    void checkReadEnd(long position, long count) {
        // each read here is the JDK channel's own, which answers for itself
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return channel.read(dst, position);
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }
}
