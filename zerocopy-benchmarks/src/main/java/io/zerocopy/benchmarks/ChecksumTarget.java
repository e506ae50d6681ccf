package io.zerocopy.benchmarks;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A stand-in for a TLS engine, a compressor or a digest: a channel (and the same as a stream) that
 * reads every byte it is given in Java and keeps a running sum of them, and discards them.
 */
final class ChecksumTarget extends OutputStream implements WritableByteChannel {
    private long sum;

    @Override
    public int write(ByteBuffer src) {
        int n = src.remaining();
        long s = sum;
        while (src.hasRemaining()) {
            s += src.get();
        }
        sum = s;
        return n;
    }

    @Override
    public void write(int b) {
        sum += (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        long s = sum;
        for (int i = off; i < off + len; i++) {
            s += b[i];
        }
        sum = s;
    }

    long sum() {
        return sum;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
        // nothing to release; stays usable for the next operation
    }
}
