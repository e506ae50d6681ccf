package io.zerocopy.spi;

import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;

/**
 * One transfer as a strategy sees it: the two ends, what kind each is, and which bytes to move.
 *
 * <p>The engine builds requests after it has validated the caller's arguments; strategy authors
 * build them with {@link #builder()} in their own tests. Instances are immutable. The channels are
 * the caller's: see the package documentation for what a strategy may and may not do with them.
 *
 * <p>For a {@link ChannelKind#FILE} source, {@link #position()} is where the bytes start in the
 * file and {@link #count()} how many to move; both were fixed when the transfer started. For any
 * other source the position is 0 and the count is either {@code -1}, when the transfer runs to end
 * of stream, or the exact number of bytes to take from it: a step is never asked for more than is
 * left, so a strategy that reads at most {@code maxBytes} never takes a byte past the count (the
 * bytes after it stay in the source for the caller).
 */
public final class TransferRequest {
    private final ReadableByteChannel source;
    private final ChannelKind sourceKind;
    private final WritableByteChannel target;
    private final ChannelKind targetKind;
    private final long position;
    private final long count;

    private TransferRequest(Builder b) {
        this.source = Objects.requireNonNull(b.source, "source");
        this.sourceKind = Objects.requireNonNull(b.sourceKind, "sourceKind");
        this.target = Objects.requireNonNull(b.target, "target");
        this.targetKind = Objects.requireNonNull(b.targetKind, "targetKind");
        this.position = b.position;
        this.count = b.count;
        if (sourceKind == ChannelKind.FILE && !(source instanceof FileChannel)) {
            throw new IllegalArgumentException("source: " + source + " (expected: a FileChannel for kind FILE)");
        }
        if (targetKind == ChannelKind.FILE && !(target instanceof FileChannel)) {
            throw new IllegalArgumentException("target: " + target + " (expected: a FileChannel for kind FILE)");
        }
        if (sourceKind == ChannelKind.FILE ? count < 0 : count < -1) {
            throw new IllegalArgumentException("count: " + count
                    + (sourceKind == ChannelKind.FILE
                            ? " (expected: >= 0)"
                            : " (expected: >= -1 for a source that is not a FILE)"));
        }
        if (position < 0 || sourceKind != ChannelKind.FILE && position != 0) {
            throw new IllegalArgumentException("position: " + position
                    + (sourceKind == ChannelKind.FILE
                            ? " (expected: >= 0)"
                            : " (expected: 0 for a source that is not a FILE)"));
        }
    }

    /** A builder with no channels set. */
    public static Builder builder() {
        return new Builder();
    }

    public ReadableByteChannel source() {
        return source;
    }

    public ChannelKind sourceKind() {
        return sourceKind;
    }

    /** The source as a {@code FileChannel}; only for a {@link ChannelKind#FILE} source. */
    public FileChannel sourceFile() {
        if (sourceKind != ChannelKind.FILE) {
            throw new IllegalStateException("source is " + sourceKind + ", not FILE");
        }
        return (FileChannel) source;
    }

    public WritableByteChannel target() {
        return target;
    }

    public ChannelKind targetKind() {
        return targetKind;
    }

    /** The target as a {@code FileChannel}; only for a {@link ChannelKind#FILE} target. */
    public FileChannel targetFile() {
        if (targetKind != ChannelKind.FILE) {
            throw new IllegalStateException("target is " + targetKind + ", not FILE");
        }
        return (FileChannel) target;
    }

    /** Whether the target is a selectable channel in non-blocking mode (it may accept 0 bytes). */
    public boolean targetNonBlocking() {
        return target instanceof SelectableChannel && !((SelectableChannel) target).isBlocking();
    }

    /** Whether the source is a selectable channel in non-blocking mode (it may yield 0 bytes). */
    public boolean sourceNonBlocking() {
        return source instanceof SelectableChannel && !((SelectableChannel) source).isBlocking();
    }

    /** Where the bytes start in a FILE source; 0 for other sources. */
    public long position() {
        return position;
    }

    /**
     * How many bytes to move: for a FILE source the slice's length; for any other source the exact
     * number of bytes to take from it, or {@code -1}: until end of stream.
     */
    public long count() {
        return count;
    }

    @Override
    public String toString() {
        return sourceKind + " -> " + targetKind + (targetNonBlocking() ? " (non-blocking)" : "")
                + (count < 0
                        ? ", until end of stream"
                        : sourceKind == ChannelKind.FILE
                                ? ", " + count + " bytes from " + position
                                : ", exactly " + count + " bytes");
    }

    /** Builds a {@link TransferRequest}; not thread-safe. */
    public static final class Builder {
        private ReadableByteChannel source;
        private ChannelKind sourceKind;
        private WritableByteChannel target;
        private ChannelKind targetKind;
        private long position;
        private long count = -1;

        private Builder() {}

        /** The source and its kind, neither null; a FILE source must be a {@code FileChannel}. */
        public Builder source(ReadableByteChannel source, ChannelKind kind) {
            this.source = Objects.requireNonNull(source, "source");
            this.sourceKind = Objects.requireNonNull(kind, "sourceKind");
            return this;
        }

        /** The target and its kind, neither null; a FILE target must be a {@code FileChannel}. */
        public Builder target(WritableByteChannel target, ChannelKind kind) {
            this.target = Objects.requireNonNull(target, "target");
            this.targetKind = Objects.requireNonNull(kind, "targetKind");
            return this;
        }

        /** For a FILE source: the slice {@code [position, position + count)}. */
        public Builder slice(long position, long count) {
            this.position = position;
            this.count = count;
            return this;
        }

        /** For any other source: take exactly {@code count} bytes from it, or {@code -1} for all of it. */
        public Builder count(long count) {
            this.count = count;
            return this;
        }

        /**
         * The request.
         *
         * @throws NullPointerException if a channel or kind is missing
         * @throws IllegalArgumentException if a value is out of range or a kind does not fit its channel
         */
        public TransferRequest build() {
            return new TransferRequest(this);
        }
    }
}
