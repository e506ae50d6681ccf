package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * {@code FileChannel.transferTo}: the kernel copies from the page cache ({@code sendfile(2)} or
 * {@code copy_file_range(2)} on Linux) when the target is a JDK channel the platform has a path
 * to; otherwise the JDK copies through a mapped or heap buffer itself, which is correct but slow,
 * so the selector only picks this strategy where {@code Platform.directTransferPath} has a path.
 * Stateless; one shared instance.
 */
final class TransferToStrategy extends BuiltInStrategy {
    static final TransferToStrategy INSTANCE = new TransferToStrategy();

    static final String NAME = "transferTo";

    private TransferToStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.sourceKind() != ChannelKind.FILE) {
            return "source is " + facts.sourceKind() + ", transferTo needs a file";
        }
        if (facts.sourceDirectIo()) {
            // sendfile and copy_file_range fail with EINVAL at an unaligned offset; the JDK then maps
            // (JDK 17), or from JDK 21 below 16 KiB and to any channel not its own reads the file
            // into a heap buffer, which direct I/O rejects.
            return "the source was opened for direct I/O, which sendfile and copy_file_range reject at"
                    + " unaligned offsets and the JDK's fallback reads through an unaligned buffer";
        }
        return null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer lent) {
        return facts.directPath() != null
                ? facts.directPath() + " from a file to a " + facts.targetKind()
                : "the JDK's user-space copy (no kernel path to a " + facts.targetKind() + " here)";
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer lent) {
        FileChannel source = facts.request().sourceFile();
        WritableByteChannel target = facts.request().target();
        long start = facts.request().position();
        return new TransferStep() {
            @Override
            public long move(long transferred, long maxBytes) throws IOException {
                // Returns 0 both when a non-blocking target is full and when the file ended early;
                // the engine tells the two apart.
                return source.transferTo(start + transferred, maxBytes, target);
            }

            @Override
            public void close() {
            }

            @Override
            public String toString() {
                return NAME;
            }
        };
    }
}
