package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;

/**
 * A {@code FileChannel} given as a transfer's source, looked at once: whether it is the JDK's own
 * ({@link ChannelKind#FILE}, which the kernel paths and {@code map} serve) and whether it was opened
 * for direct I/O. {@link Opener} asks here and hands the answers to {@link TransferFacts}; nothing
 * looks at the channel again for them. Not thread-safe; one per verb call.
 */
final class SourceFile {
    final FileChannel channel;
    /** Whether the channel is the JDK's own, not another file system provider's. */
    final boolean jdk;
    /**
     * Whether a read can check a slice (a directory fails it, a short file ends it): the JDK's
     * channels and the library's natively opened files; another provider's has its size compared.
     */
    final boolean readChecks;
    /** Whether it was opened for direct I/O, once known. */
    private Boolean directIo;

    private SourceFile(FileChannel channel, Boolean directIo) {
        this.channel = channel;
        this.jdk = ChannelKinds.of(channel) == ChannelKind.FILE;
        this.readChecks = jdk || channel instanceof NativeFile;
        this.directIo = jdk ? directIo : Boolean.FALSE;
    }

    /** A caller's channel, which may have been opened for direct I/O. */
    static SourceFile callers(FileChannel channel) {
        return new SourceFile(channel, null);
    }

    /** A channel the library opened for reading, without direct I/O. */
    static SourceFile opened(FileChannel channel) {
        return new SourceFile(channel, Boolean.FALSE);
    }

    /**
     * Whether a JDK file channel was opened for direct I/O, asked of the channel once (see
     * {@link ChannelKinds#isDirectIo}: no system call). A channel not open for reading throws the
     * JDK's own {@link NonReadableChannelException}, now and on every later call.
     */
    boolean directIo() {
        if (directIo == null) {
            directIo = ChannelKinds.isDirectIo(channel);
        }
        return directIo;
    }

    /**
     * Whether a JDK file whose size reads as 0 really is empty, so that it can be sent as a FILE
     * slice of 0 bytes, rather than a procfs-style file that has content anyway or a channel that
     * cannot be read by position (a FIFO). A channel opened for direct I/O is taken at its size:
     * procfs, sysfs and FIFOs refuse O_DIRECT, and the one-byte read would fail on its alignment.
     */
    boolean isEmpty() throws ClosedByInterruptException {
        try {
            return jdk && (directIo() || ChannelKinds.probe(channel, 0) < 0);
        } catch (ClosedByInterruptException e) {
            throw e; // the interrupt closed the channel: no answer, and the caller's to hear
        } catch (IOException | NonReadableChannelException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return channel + (jdk ? "" : " (another provider's)") + (Boolean.TRUE.equals(directIo) ? " (O_DIRECT)" : "");
    }
}
