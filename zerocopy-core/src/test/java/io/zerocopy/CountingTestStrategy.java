package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A third-party strategy as a user would register it: listed in this module's test resources under
 * {@code META-INF/services/io.zerocopy.spi.TransferStrategy}, so every test in the module runs with
 * it loaded.
 *
 * <p>It serves only requests whose target is a {@link MarkerTarget} and declines everything else,
 * so it cannot change which strategy any other test sees. It copies through a small heap buffer and
 * counts how many steps it opened and closed, so a test can see that it really ran.
 */
public final class CountingTestStrategy implements TransferStrategy {

    static final String NAME = "counting-test";

    static final AtomicInteger OPENED = new AtomicInteger();
    static final AtomicInteger CLOSED = new AtomicInteger();

    /** Needed by {@link java.util.ServiceLoader}. */
    public CountingTestStrategy() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        if (!(request.target() instanceof MarkerTarget)) {
            return Support.no("target is not a MarkerTarget");
        }
        return Support.yes("the target is a MarkerTarget");
    }

    @Override
    public TransferStep open(TransferRequest request) {
        OPENED.incrementAndGet();
        ByteBuffer buffer = ByteBuffer.allocate(4096).flip(); // empty; holds bytes read but not yet written
        return new TransferStep() {
            @Override
            public long move(long transferred, long maxBytes) throws IOException {
                if (!buffer.hasRemaining()) {
                    buffer.clear();
                    buffer.limit((int) Math.min(buffer.capacity(), maxBytes));
                    int read = request.sourceKind() == ChannelKind.FILE
                            ? request.sourceFile().read(buffer, request.position() + transferred)
                            : request.source().read(buffer);
                    buffer.flip();
                    if (read <= 0) {
                        return read;
                    }
                }
                // One write per step: a short count is the engine's to loop on, and a failure then
                // comes after every byte that reached the target has been counted.
                ByteBuffer slice = buffer.duplicate();
                slice.limit(slice.position() + (int) Math.min(slice.remaining(), maxBytes));
                int written = request.target().write(slice);
                buffer.position(buffer.position() + written);
                return written;
            }

            @Override
            public void close() {
                CLOSED.incrementAndGet();
            }
        };
    }

    @Override
    public String toString() {
        return NAME;
    }

    /** The one target this strategy serves; keeps what it is given. */
    public static final class MarkerTarget implements WritableByteChannel {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final WritableByteChannel delegate;
        private boolean open = true;

        /** An empty, open target. */
        public MarkerTarget() {
            this.delegate = null;
        }

        /** A target that writes through to {@code delegate}, with its short counts and failures. */
        public MarkerTarget(WritableByteChannel delegate) {
            this.delegate = delegate;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (delegate != null) {
                return delegate.write(src);
            }
            int n = src.remaining();
            byte[] chunk = new byte[n];
            src.get(chunk);
            bytes.write(chunk, 0, n);
            return n;
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }

        @Override
        public boolean isOpen() {
            return delegate != null ? delegate.isOpen() : open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
