package io.zerocopy;

import io.zerocopy.spi.TransferRequest;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;

/**
 * Turns whatever ended a transfer (a step's exception, an interrupt, the source's early end) into
 * the {@link TransferException} or {@link TruncatedSourceException} the caller sees, with the count
 * so far. It reads the source file's size to tell a truncation apart, and holds no state of the
 * transfer's.
 */
final class TransferFailures {
    private final TransferFacts facts;
    private final TransferRequest request;
    private final String strategy;
    /** The transfer's count, prefix included; -1 for "until the end". */
    private final long count;
    /** The path the source file was opened from, or null. */
    private final Path sourcePath;

    TransferFailures(TransferFacts facts, String strategy, long count, Path sourcePath) {
        this.facts = facts;
        this.request = facts.request();
        this.strategy = strategy;
        this.count = count;
        this.sourcePath = sourcePath;
    }

    /**
     * What an operator reading the log needs first, for the end of a message: the file opened from
     * a path and the target socket's peer, where known, as {@code " (from FILE to PEER)"}; else empty.
     */
    String subject() {
        String to = null;
        if (request.target() instanceof SocketChannel socket) {
            try {
                to = Objects.toString(socket.getRemoteAddress(), null);
            } catch (IOException e) {
                // closed: nothing to name
            }
        }
        if (sourcePath == null && to == null) {
            return "";
        }
        return " (" + (sourcePath == null ? "" : "from " + sourcePath) + (sourcePath != null && to != null ? " " : "")
                + (to == null ? "" : "to " + to) + ")";
    }

    /**
     * {@code cause} as the transfer's failure: itself if it is one; a truncation if the file is now
     * shorter than the slice; an early end for an {@link EOFException} from a source with a count
     * that is no file; else a {@link TransferException} naming the strategy, with the count and
     * {@code cause}.
     */
    TransferException of(Throwable cause, long moved) {
        if (cause instanceof TransferException) {
            return (TransferException) cause;
        }
        TruncatedSourceException truncation = truncation(cause, moved);
        if (truncation != null) {
            return truncation;
        }
        if (cause instanceof EOFException && count >= 0 && facts.truncatableFile() == null) {
            return endedEarly((EOFException) cause, moved);
        }
        String what = cause instanceof IOException
                ? "failed"
                : "failed with " + cause.getClass().getSimpleName();
        return new TransferException(
                strategy + " " + what + " after " + moved + " bytes: " + words(cause) + subject(), moved, cause);
    }

    /** No byte moved for {@code timeout}, after {@code moved}: the exception names the transfer's ends. */
    TransferTimeoutException timedOut(long moved, Duration timeout) {
        return new TransferTimeoutException(moved, timeout, subject());
    }

    /** A cause's message, or its type where it has none (the JDK's close and interrupt exceptions). */
    private static String words(Throwable cause) {
        String message = cause.getMessage();
        return message != null ? message : cause.getClass().getSimpleName();
    }

    /** The source ended before the promised count: a shrunk or overstated file, or a stream that ended early. */
    TransferException endedEarly(EOFException cause, long moved) {
        TruncatedSourceException truncation = truncation(cause, moved);
        if (truncation != null) {
            return truncation;
        }
        FileChannel file = facts.truncatableFile(); // a JDK file or one opened natively
        if (file == null) {
            EOFException eof = cause != null
                    ? cause
                    : new EOFException("end of stream after " + moved + " of " + count + " bytes");
            return new TransferException(
                    "the source ended after " + moved + " of " + count + " bytes" + subject(), moved, eof);
        }
        String size;
        try {
            size = Long.toString(FileChannels.size(file));
        } catch (IOException e) {
            size = "unknown";
        }
        return new TransferException(
                "the source file ended after " + moved + " of " + count + " bytes while its size still reads " + size
                        + ", a procfs or sysfs file?" + subject(),
                moved,
                cause);
    }

    /**
     * A {@link TruncatedSourceException} if the source is a file now shorter than the end of the
     * slice, else null. Reading the size neither closes the channel on a pending interrupt nor hides
     * the original failure: a failure to read it is added to {@code cause} as suppressed.
     */
    TruncatedSourceException truncation(Throwable cause, long moved) {
        FileChannel file = facts.truncatableFile();
        long end = facts.truncatableEnd();
        if (file == null || !file.isOpen()) {
            return null;
        }
        try {
            long size = FileChannels.size(file);
            return size < end ? new TruncatedSourceException(moved, end, size, cause, subject()) : null;
        } catch (IOException sizeFailure) {
            if (cause != null) {
                cause.addSuppressed(sizeFailure);
            }
            return null;
        }
    }

    /** A {@link Transfer#close()} before the transfer was done. */
    TransferException abandoned(long moved) {
        return new TransferException(
                "transfer closed after " + moved + " of " + countWords(count) + " bytes, before it was done",
                moved,
                null);
    }

    /** A transfer's count in words: "all" for one that runs to the end of its source. */
    static String countWords(long count) {
        return count < 0 ? "all" : Long.toString(count);
    }

    /** A cancel of the future ({@code copyAsync}), seen between steps or as the last one ends. */
    TransferException cancelled(long moved) {
        return new TransferException(
                "cancelled after " + moved + " bytes", moved, new CancellationException("cancelled"));
    }

    /** An interrupt seen between steps, or one that closed a channel during a step. */
    TransferException interrupted(long moved) {
        if (!request.source().isOpen() || !request.target().isOpen()) {
            // A JDK channel saw the interrupt inside a call and closed itself, yet the call returned
            // (transferTo to or from a channel that is not the JDK's own keeps its count and drops
            // the exception): report it the way the JDK would have.
            return new TransferException(
                    "interrupted after " + moved + " bytes; the interrupt closed a channel" + subject(),
                    moved,
                    new ClosedByInterruptException());
        }
        // The channels are still open: the interrupt arrived between calls into them. The flag stays
        // set so that the caller's own code sees it too.
        InterruptedIOException cause = new InterruptedIOException("interrupted after " + moved + " bytes");
        cause.bytesTransferred = (int) Math.min(moved, Integer.MAX_VALUE);
        return new TransferException("interrupted after " + moved + " bytes" + subject(), moved, cause);
    }

    /** A step's count {@code n} when asked for at most {@code ask} bytes; a strategy's bug (out of range) throws. */
    static long checkedCount(String strategy, long n, long ask) {
        if (n > ask || n < -1) {
            throw new IllegalStateException(strategy + " returned " + n + " when asked for at most " + ask
                    + " bytes (expected: 0 to " + ask + ", or -1 at the end of the source)");
        }
        return n;
    }

    /**
     * Closes what a transfer held ({@code c}; null: nothing) as it ends: a failure to close is added
     * to the transfer's {@code failure}, or logged where there is none (an {@code Error} is thrown).
     */
    static void closeAfter(Closeable c, TransferException failure) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException | RuntimeException | Error e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else if (e instanceof Error) {
                throw (Error) e;
            } else {
                Logs.TRANSFERS.debug("could not release {} after the transfer", c, e);
            }
        }
    }
}
