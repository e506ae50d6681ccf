package io.zerocopy.spi;

import java.io.Closeable;
import java.io.IOException;

/**
 * The per-transfer state of a strategy: one call to {@link #move} makes one step of progress.
 *
 * <p>The engine calls {@link #move} one call at a time and always calls {@link #close()} exactly
 * once at the end, whether the transfer succeeded or failed. Successive calls may come from
 * different threads (an event loop hands a connection over; a transfer is closed by another
 * thread), each call happening-before the next, so a step needs no synchronisation but must not
 * hold anything confined to one thread. A step is never shared between transfers.
 */
public interface TransferStep extends Closeable {

    /** Which end of the transfer a step that made no progress was waiting on. */
    enum Side {
        SOURCE,
        TARGET
    }

    /**
     * Moves at most {@code maxBytes} bytes from the source to the target.
     *
     * <p><b>Short counts are legal and normal.</b> The step may move fewer bytes than asked, or none
     * (for example a non-blocking target whose send buffer is full); the engine loops, waits, or
     * detects a stall. A step must not block waiting for readiness itself and must not retry to fill
     * the count: that is the engine's job.
     *
     * <p>The engine never asks for more than the platform's per-call cap, never for more than is left
     * of a FILE source's slice, and never for 0 bytes.
     *
     * @param transferred how many bytes this transfer has already moved; for a FILE source the next
     *     byte is at {@code request.position() + transferred}
     * @param maxBytes the most bytes to move in this step, at least 1
     * @return the bytes moved into the target (0 or more), or {@code -1} when the source is at end
     *     of stream and nothing is left to write
     * @throws IOException if either end fails; the engine reports it with the count so far
     */
    long move(long transferred, long maxBytes) throws IOException;

    /**
     * After {@link #move} returned 0: which end it was waiting on, so the engine knows whether to
     * wait for the source to become readable or the target writable. Defaults to the target.
     */
    default Side stalledOn() {
        return Side.TARGET;
    }

    /**
     * Releases what {@link TransferStrategy#open} acquired (buffers, mappings). It must not close
     * the request's channels.
     */
    @Override
    void close() throws IOException;
}
