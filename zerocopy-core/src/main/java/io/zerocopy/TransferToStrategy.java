package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * {@code FileChannel.transferTo}: the kernel copies from the page cache ({@code sendfile(2)} or
 * {@code copy_file_range(2)} on Linux) when the target is a JDK channel the platform has a path
 * to; otherwise the JDK copies through a mapped or heap buffer itself, which is correct but slow,
 * so the selector only picks this strategy where {@code Platform.directTransferPath} has a path.
 * Stateless; one shared instance.
 */
final class TransferToStrategy implements TransferStrategy {
    static final TransferToStrategy INSTANCE = new TransferToStrategy();

    static final String NAME = "transferTo";

    private TransferToStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        if (request.sourceKind() != ChannelKind.FILE) {
            return Support.no("source is " + request.sourceKind() + ", transferTo needs a file");
        }
        if (request.sourceDirectIo()) {
            // sendfile and copy_file_range fail with EINVAL at an unaligned offset; the JDK then maps
            // (JDK 17), or from JDK 21 below 16 KiB and to any channel not its own reads the file
            // into a heap buffer, which direct I/O rejects.
            return Support.no("the source was opened for direct I/O, which sendfile and copy_file_range reject at"
                    + " unaligned offsets and the JDK's fallback reads through an unaligned buffer");
        }
        return Support.yes(request.platform().directTransferPath(request.targetKind(), request.targetNonBlocking())
                .map(path -> path + " from a file to a " + request.targetKind())
                .orElse("the JDK's user-space copy (no kernel path to a " + request.targetKind() + " here)"));
    }

    @Override
    public TransferStep open(TransferRequest request) {
        FileChannel source = request.sourceFile();
        WritableByteChannel target = request.target();
        long start = request.position();
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

    @Override
    public String toString() {
        return NAME;
    }
}
