package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The one place that decides what a channel is: every verb, {@code Path} verbs included, asks here.
 * Only the JDK's own channel classes are {@link ChannelKind#FILE}, {@code SOCKET} or {@code PIPE}; a
 * {@code FileChannel} of another file system provider (zipfs, in-memory) is {@code OTHER}, since
 * neither the kernel paths nor {@code map} can be relied on for it, and is read at explicit
 * positions through a {@link FileSliceChannel}.
 */
final class ChannelKinds {

    /** Zero bytes for checks that touch nothing: never written, so shared; direct, so the JDK needs no copy of it. */
    static final ByteBuffer NOTHING = directOrHeap(0);

    /** Where {@link #probe} drops its byte: direct, so the JDK reads straight into it; shared through views. */
    private static final ByteBuffer PROBE_BYTE = directOrHeap(1);

    /**
     * A direct buffer of {@code size} bytes, or a heap one where the JVM refuses it (its direct
     * memory spent, or {@code -XX:MaxDirectMemorySize=0}): made while a class initialises, so a
     * refusal must not fail the class, which would fail every later use of the library.
     */
    private static ByteBuffer directOrHeap(int size) {
        try {
            return ByteBuffer.allocateDirect(size);
        } catch (OutOfMemoryError e) {
            return ByteBuffer.allocate(size);
        }
    }

    private ChannelKinds() {}

    static void requireOpen(Channel channel) throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    /**
     * Checks that both ends are open, and makes a JDK file target opened in the wrong mode throw the
     * JDK's own {@code NonWritableChannelException} now, with a write of zero bytes that checks the
     * mode and makes no system call. A JDK file source was checked the same way when
     * {@link SourceFile} asked whether it was opened for direct I/O.
     */
    static void requireModes(Channel source, WritableByteChannel target, ChannelKind targetKind) throws IOException {
        requireOpen(source);
        requireOpen(target);
        if (targetKind == ChannelKind.FILE) {
            // Not positional: a FileChannel over a pipe, FIFO or terminal cannot seek.
            ((FileChannel) target).write(NOTHING);
        }
    }

    /** Whether the channel is the library's adapter of an {@code InputStream} or {@code OutputStream}. */
    static boolean isStream(Channel channel) {
        return channel instanceof StreamChannels.Input || channel instanceof StreamChannels.Output;
    }

    /** The kind of a channel the caller passed in or the library made; a stream's adapter is OTHER. */
    static ChannelKind of(Channel channel) {
        if (!isJdkChannel(channel)) {
            return ChannelKind.OTHER;
        }
        if (channel instanceof FileChannel) {
            return ChannelKind.FILE;
        }
        if (channel instanceof SocketChannel) {
            return ChannelKind.SOCKET;
        }
        if (channel instanceof Pipe.SinkChannel || channel instanceof Pipe.SourceChannel) {
            return ChannelKind.PIPE;
        }
        return ChannelKind.OTHER;
    }

    /** Whether the channel's class is the JDK's own (module {@code java.base}), not a wrapper or another provider's. */
    static boolean isJdkChannel(Channel channel) {
        return channel.getClass().getModule() == FileChannel.class.getModule();
    }

    /**
     * Whether a JDK file channel was opened for direct I/O ({@code ExtendedOpenOption.DIRECT}): a read
     * of nothing at position 1 fails the JDK's block-alignment check without a system call. A channel
     * not open for reading throws the JDK's {@link NonReadableChannelException} now.
     */
    static boolean isDirectIo(FileChannel file) {
        try {
            file.read(NOTHING, 1);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Reads the byte at {@code position} of {@code file} and drops it: 1 if there is one, -1 at the
     * end of the file (0 only for a channel that reads nothing now).
     */
    static int probe(FileChannel file, long position) throws IOException {
        return file.read(PROBE_BYTE.duplicate(), position);
    }

    /** A {@code FileInputStream} (exactly that class) through its channel, any other stream through a view. */
    static ReadableByteChannel channelOf(InputStream source) {
        return source.getClass() == FileInputStream.class
                ? ((FileInputStream) source).getChannel()
                : new StreamChannels.Input(source);
    }

    /** A {@code FileOutputStream} (exactly that class) through its channel, any other stream through a view. */
    static WritableByteChannel channelOf(OutputStream target) {
        return target.getClass() == FileOutputStream.class
                ? ((FileOutputStream) target).getChannel()
                : new StreamChannels.Output(target);
    }
}
