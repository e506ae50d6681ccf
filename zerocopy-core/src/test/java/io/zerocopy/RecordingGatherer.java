package io.zerocopy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayList;
import java.util.List;

/** A gathering channel (of no JDK class) that takes at most {@code maxPerCall} bytes a call and records each call. */
final class RecordingGatherer implements GatheringByteChannel {
    /** One call into {@link RecordingGatherer}: gathering or not, bytes offered, bytes taken. */
    static final class Call {
        final boolean gathering;
        final long offered;
        final long taken;

        Call(boolean gathering, long offered, long taken) {
            this.gathering = gathering;
            this.offered = offered;
            this.taken = taken;
        }

        @Override
        public String toString() {
            return (gathering ? "gather " : "write ") + taken + "/" + offered;
        }
    }

    final List<Call> calls = new ArrayList<>();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int maxPerCall;

    RecordingGatherer(int maxPerCall) {
        this.maxPerCall = maxPerCall;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        long offered = 0;
        for (int i = offset; i < offset + length; i++) {
            offered += srcs[i].remaining();
        }
        long taken = 0;
        for (int i = offset; i < offset + length && taken < maxPerCall; i++) {
            taken += take(srcs[i], (int) Math.min(srcs[i].remaining(), maxPerCall - taken));
        }
        calls.add(new Call(true, offered, taken));
        return taken;
    }

    @Override
    public long write(ByteBuffer[] srcs) {
        return write(srcs, 0, srcs.length);
    }

    @Override
    public int write(ByteBuffer src) {
        int offered = src.remaining();
        int taken = take(src, Math.min(offered, maxPerCall));
        calls.add(new Call(false, offered, taken));
        return taken;
    }

    private int take(ByteBuffer src, int n) {
        byte[] b = new byte[n];
        src.get(b);
        bytes.writeBytes(b);
        return n;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {}
}
