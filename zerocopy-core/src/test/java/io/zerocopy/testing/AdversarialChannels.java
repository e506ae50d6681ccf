package io.zerocopy.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.Random;

/**
 * Hand-written channels that behave as badly as the channel contracts allow (and, for
 * {@link Behaviour#ZEROS_NOW_AND_THEN}, a little worse): short counts, one byte per call, zero
 * progress in blocking mode, failures after a known number of bytes.
 *
 * <p>Both fakes are blocking-mode channels that are not {@code SelectableChannel}s, so the engine
 * cannot select on them and takes its back-off path when they move nothing. Both are
 * {@link io.zerocopy.spi.ChannelKind#OTHER} to the library. Not thread-safe: a transfer runs on one
 * thread. Public, for {@link TransferStrategyContract} and the tests of strategy authors.
 */
public final class AdversarialChannels {

    /**
     * One in this many calls of {@link Behaviour#ZEROS_NOW_AND_THEN} moves nothing. Each zero costs
     * the engine a back-off pause of at least 50 microseconds, so the fraction is kept small enough
     * for a few thousand calls per transfer to stay fast.
     */
    public static final int ZERO_ONE_IN = 16;

    private AdversarialChannels() {}

    /** How a fake decides how many bytes a call moves. */
    public enum Behaviour {
        /** One byte per call. */
        ONE_BYTE,
        /** A random count from 1 to what is available. */
        RANDOM_SHORT,
        /** Nothing on a random 1 in {@link #ZERO_ONE_IN} calls, a random short count otherwise. */
        ZEROS_NOW_AND_THEN,
        /** Random short counts until {@code limit} bytes have moved, then an {@code IOException} on every call. */
        FAIL_AFTER_N,
        /** Random short counts until {@code limit} bytes have moved, then 0 on every call, for ever. */
        STALL_AFTER_N
    }

    /** Runs after every call that moved bytes; may truncate files, interrupt the thread, or throw. */
    @FunctionalInterface
    public interface Hook {
        void after(long totalSoFar) throws IOException;
    }

    private static final Hook NO_HOOK = total -> {};

    /** Shared decision logic; {@code done} is what moved before this call, {@code available} what this call could move (> 0). */
    public abstract static class Fake {
        final Behaviour behaviour;
        final long limit;
        final Random random;
        Hook hook = NO_HOOK;
        boolean open = true;
        int calls;
        int largestOffer;
        IOException lastFailure;

        Fake(Behaviour behaviour, long limit, Random random) {
            this.behaviour = behaviour;
            this.limit = limit;
            this.random = random;
        }

        int decide(long done, int available) throws IOException {
            switch (behaviour) {
                case ONE_BYTE:
                    return 1;
                case RANDOM_SHORT:
                    return 1 + random.nextInt(available);
                case ZEROS_NOW_AND_THEN:
                    return random.nextInt(ZERO_ONE_IN) == 0 ? 0 : 1 + random.nextInt(available);
                case FAIL_AFTER_N: {
                    long left = limit - done;
                    if (left <= 0) {
                        lastFailure = new IOException("injected failure after " + done + " bytes");
                        throw lastFailure;
                    }
                    return 1 + random.nextInt((int) Math.min(available, left));
                }
                case STALL_AFTER_N: {
                    long left = limit - done;
                    return left <= 0 ? 0 : 1 + random.nextInt((int) Math.min(available, left));
                }
                default:
                    throw new AssertionError(behaviour);
            }
        }

        public boolean isOpen() {
            return open;
        }

        public void close() {
            open = false;
        }

        /** How many times read or write was called. */
        public int calls() {
            return calls;
        }

        /** The largest buffer remaining a single call was offered. */
        public int largestOffer() {
            return largestOffer;
        }

        /** The exception thrown by the latest failing call, or null. */
        public IOException lastFailure() {
            return lastFailure;
        }
    }

    /** A target that records every byte it accepts into a growing array. */
    public static final class Target extends Fake implements WritableByteChannel {
        private byte[] bytes = new byte[1024];
        private int size;

        private Target(Behaviour behaviour, long limit, Random random) {
            super(behaviour, limit, random);
        }

        public static Target of(Behaviour behaviour, Random random) {
            if (behaviour == Behaviour.FAIL_AFTER_N || behaviour == Behaviour.STALL_AFTER_N) {
                throw new IllegalArgumentException(behaviour + " needs a limit");
            }
            return new Target(behaviour, -1, random);
        }

        public static Target limited(Behaviour behaviour, long limit, Random random) {
            return new Target(behaviour, limit, random);
        }

        public Target hook(Hook hook) {
            this.hook = hook;
            return this;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            calls++;
            int available = src.remaining();
            largestOffer = Math.max(largestOffer, available);
            if (available == 0) {
                return 0;
            }
            int n = decide(size, available);
            if (n > 0) {
                if (size + n > bytes.length) {
                    bytes = Arrays.copyOf(bytes, Math.max(size + n, bytes.length * 2));
                }
                // A copy in Java, also out of a mapped buffer: that is what faults when a mapped file shrinks.
                src.get(bytes, size, n);
                size += n;
                hook.after(size);
            }
            return n;
        }

        /** The bytes accepted so far. */
        public byte[] bytes() {
            return Arrays.copyOf(bytes, size);
        }

        /** How many bytes were accepted so far. */
        public long size() {
            return size;
        }

        @Override
        public String toString() {
            return "Target(" + behaviour + (limit >= 0 ? " " + limit : "") + ")";
        }
    }

    /** A source that hands out a byte array, then end of stream. */
    public static final class Source extends Fake implements ReadableByteChannel {
        private final byte[] data;
        private int position;

        private Source(byte[] data, Behaviour behaviour, long limit, Random random) {
            super(behaviour, limit, random);
            this.data = data;
        }

        public static Source of(byte[] data, Behaviour behaviour, Random random) {
            if (behaviour == Behaviour.FAIL_AFTER_N || behaviour == Behaviour.STALL_AFTER_N) {
                throw new IllegalArgumentException(behaviour + " needs a limit");
            }
            return new Source(data, behaviour, -1, random);
        }

        public static Source limited(byte[] data, Behaviour behaviour, long limit, Random random) {
            return new Source(data, behaviour, limit, random);
        }

        public Source hook(Hook hook) {
            this.hook = hook;
            return this;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            calls++;
            largestOffer = Math.max(largestOffer, dst.remaining());
            if (dst.remaining() == 0) {
                return 0;
            }
            boolean limited = behaviour == Behaviour.FAIL_AFTER_N || behaviour == Behaviour.STALL_AFTER_N;
            if (limited && position >= limit) {
                return decide(position, 1); // throws, or 0 for ever
            }
            if (position == data.length) {
                return -1;
            }
            int n = decide(position, Math.min(dst.remaining(), data.length - position));
            if (n > 0) {
                dst.put(data, position, n);
                position += n;
                hook.after(position);
            }
            return n;
        }

        /** How many bytes were handed out so far. */
        public long delivered() {
            return position;
        }

        @Override
        public String toString() {
            return "Source(" + behaviour + (limit >= 0 ? " " + limit : "") + ", " + data.length + " bytes)";
        }
    }
}
