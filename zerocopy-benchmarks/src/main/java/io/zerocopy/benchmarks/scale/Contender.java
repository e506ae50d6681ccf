package io.zerocopy.benchmarks.scale;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * One way of doing a transfer, in one of the three shapes the scale benchmark drives. Every
 * contender opens the file itself, once per transfer, as a server would.
 */
sealed interface Contender permits Contender.Send, Contender.Loop, Contender.Receive {

    /** The name in results and on the command line. */
    String name();

    /** Sends a whole file to a connected blocking socket on the calling thread (one thread per transfer). */
    record Send(String name, SendCall call) implements Contender {}

    /**
     * Sends N files to N non-blocking sockets from ONE selector thread, the way an event loop
     * serves them: on each write readiness it gives the transfer one {@link Step}.
     */
    record Loop(String name, StepFactory steps) implements Contender {}

    /** Copies a connected blocking socket to its end of stream into a new file, on the calling thread. */
    record Receive(String name, ReceiveCall call) implements Contender {}

    /** A blocking send; returns the bytes sent. */
    @FunctionalInterface
    interface SendCall {
        long send(Path source, SocketChannel target) throws IOException;
    }

    /** A blocking receive into {@code target} (which the call creates); returns the bytes written. */
    @FunctionalInterface
    interface ReceiveCall {
        long receive(SocketChannel source, Path target) throws IOException;
    }

    /** Opens one transfer of {@code source} to a non-blocking {@code target} for a selector loop. */
    @FunctionalInterface
    interface StepFactory {
        Step open(Path source, SocketChannel target) throws IOException;
    }

    /**
     * One transfer driven by a selector loop; closing it releases what it opened (never the socket).
     */
    interface Step extends Closeable {
        /**
         * Moves what the socket takes now, without blocking; called when the socket is writable.
         *
         * @return true once the whole file has been handed to the socket
         */
        boolean advance() throws IOException;
    }
}
