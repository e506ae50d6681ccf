package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.FileRegion;
import io.zerocopy.OpenFile;
import io.zerocopy.Transfer;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.benchmarks.RawLoops;
import io.zerocopy.benchmarks.uring.IoUring;
import io.zerocopy.benchmarks.uring.UringSender;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * What one small transfer costs, each way a caller could send a cached file to a socket. Every
 * contender sends the whole file once; {@code ...Open} contenders reuse a channel opened before the
 * run, the others open and close the file themselves, as a server does per request.
 */
enum FixedCostContenders {
    /** {@code Transfers.copy(Path, SocketChannel)}. */
    COPY_PATH("copyPath") {
        @Override
        long send(Ends ends) throws IOException {
            return Transfers.copy(ends.path, ends.socket);
        }
    },
    /** {@code copyPath} with a listener that counts progress: what watching a transfer costs. */
    COPY_PATH_WATCHED("copyPathWatched") {
        @Override
        long send(Ends ends) throws IOException {
            return Transfers.copy(ends.path, ends.socket, WATCHED);
        }
    },
    /**
     * {@code copyPath} with the {@code native} strategy excluded: the JDK path, for comparing it with
     * the native one in a JVM that has native access.
     */
    COPY_PATH_JDK("copyPathJdk") {
        @Override
        long send(Ends ends) throws IOException {
            return Transfers.copy(ends.path, ends.socket, JDK_PATH);
        }
    },
    /** Open the file, {@code Transfers.copy(fc, 0, size, socket)}, close it. */
    COPY_SLICE("copySlice") {
        @Override
        long send(Ends ends) throws IOException {
            try (FileChannel file = FileChannel.open(ends.path, StandardOpenOption.READ)) {
                return Transfers.copy(file, 0, ends.size, ends.socket);
            }
        }
    },
    /**
     * A server's way: {@code OpenFile.open(path)}, {@code Transfers.copy(file.channel(), 0, size,
     * socket)} with the size its open read, close. On Java 22+ with native access, the file is
     * opened natively and the slice goes by the {@code native} strategy.
     */
    OPEN_FILE("openFile") {
        @Override
        long send(Ends ends) throws IOException {
            try (OpenFile file = OpenFile.open(ends.path)) {
                return Transfers.copy(file.channel(), 0, file.attributes().size(), ends.socket);
            }
        }
    },
    /** {@code Transfers.copy(fc, 0, size, socket)} on a channel opened once. */
    COPY_SLICE_OPEN("copySliceOpen") {
        @Override
        long send(Ends ends) throws IOException {
            return Transfers.copy(ends.open, 0, ends.size, ends.socket);
        }
    },
    /** Open the file, {@code Transfers.open(...)} and advance the handle to its end, close. */
    HANDLE("handle") {
        @Override
        long send(Ends ends) throws IOException {
            try (FileChannel file = FileChannel.open(ends.path, StandardOpenOption.READ)) {
                return driven(Transfers.open(FileRegion.of(file, 0, ends.size), ends.socket));
            }
        }
    },
    /**
     * {@code Transfers.open(Path, SocketChannel)} advanced to its end: the handle an event loop
     * drives, here on a blocking socket.
     */
    OPEN_PATH("openPath") {
        @Override
        long send(Ends ends) throws IOException {
            return driven(Transfers.open(ends.path, ends.socket));
        }
    },
    /** {@code openPath} with the listener of {@code copyPathWatched}. */
    OPEN_PATH_WATCHED("openPathWatched") {
        @Override
        long send(Ends ends) throws IOException {
            return driven(Transfers.open(ends.path, ends.socket, WATCHED));
        }
    },
    /** Open, {@code transferTo} until everything is sent, close: the raw kernel path. */
    RAW_TRANSFER_TO("rawTransferTo") {
        @Override
        long send(Ends ends) throws IOException {
            try (FileChannel file = FileChannel.open(ends.path, StandardOpenOption.READ)) {
                return RawLoops.transferTo(file, file.size(), ends.socket);
            }
        }
    },
    /** The same on a channel opened once. */
    RAW_TRANSFER_TO_OPEN("rawTransferToOpen") {
        @Override
        long send(Ends ends) throws IOException {
            return RawLoops.transferTo(ends.open, ends.size, ends.socket);
        }
    },
    /** Open, positional reads into one reused direct buffer and writes until everything is sent, close. */
    RAW_PREAD_WRITE("rawPreadWrite") {
        @Override
        long send(Ends ends) throws IOException {
            try (FileChannel file = FileChannel.open(ends.path, StandardOpenOption.READ)) {
                return preadWrite(file, file.size(), ends);
            }
        }
    },
    /** The same on a channel opened once. */
    RAW_PREAD_WRITE_OPEN("rawPreadWriteOpen") {
        @Override
        long send(Ends ends) throws IOException {
            return preadWrite(ends.open, ends.size, ends);
        }
    },
    /**
     * The raw read/write loop told the size, as {@code ioUring} is:
     * open, reads and writes, close; no {@code size()}.
     */
    RAW_PREAD_WRITE_SIZED("rawPreadWriteSized") {
        @Override
        long send(Ends ends) throws IOException {
            try (FileChannel file = FileChannel.open(ends.path, StandardOpenOption.READ)) {
                return preadWrite(file, ends.size, ends);
            }
        }
    },
    /**
     * The io_uring prototype (docs/io-uring.md), told the size: open, read, send and close linked in
     * one submission of the thread's ring. Java 22+ with the flags {@link IoUring#refusal()} names.
     */
    IO_URING("ioUring") {
        @Override
        long send(Ends ends) throws IOException {
            return ends.uring().send(ends.path, ends.size, ends.socket);
        }

        @Override
        String refusal() {
            return IoUring.refusal();
        }
    },
    /**
     * The floor under the library's native file path (issue 35): {@code openat}, {@code fstat},
     * {@code pread} and {@code close} each one bare FFM call, the socket written by the JDK as the
     * library writes it. Java 22+ from a jar built with {@code -Puring}, files up to 64 KiB.
     */
    BARE_CALLS("bareCalls") {
        @Override
        long send(Ends ends) throws IOException {
            return ends.plain().send(ends.path, ends.size, ends.socket);
        }

        @Override
        String refusal() {
            return IoUring.plainRefusal();
        }
    };

    /** Options that keep a path off the native strategy. */
    private static final TransferOptions JDK_PATH =
            TransferOptions.builder().exclude("native").build();

    /** Options whose listener does the least a listener does: it counts what it hears. */
    private static final TransferOptions WATCHED = TransferOptions.builder()
            .listener(new TransferListener() {
                private long heard;

                @Override
                public void onProgress(long bytesTransferred) {
                    heard += bytesTransferred;
                }
            })
            .build();

    final String label;

    FixedCostContenders(String label) {
        this.label = label;
    }

    /** Sends the whole file once; returns the bytes sent. */
    abstract long send(Ends ends) throws IOException;

    /** Why this contender cannot run in this JVM, or {@code null} when it can. */
    String refusal() {
        return null;
    }

    /** Whether this contender is one of the raw loops the library is compared with. */
    boolean raw() {
        return label.startsWith("raw");
    }

    /** Whether this contender opens the file for each transfer. */
    boolean opensPerTransfer() {
        return !label.endsWith("Open");
    }

    static FixedCostContenders of(String label) {
        for (FixedCostContenders c : values()) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        List<String> labels = Arrays.stream(values()).map(c -> c.label).toList();
        throw new IllegalArgumentException("contender: " + label + " (expected one of: " + labels + ")");
    }

    /** Advances a transfer to its end, closes it, and returns the bytes it moved. */
    private static long driven(Transfer transfer) throws IOException {
        try (transfer) {
            while (!transfer.isDone()) {
                transfer.advance();
            }
            return transfer.bytesTransferred();
        }
    }

    private static long preadWrite(FileChannel file, long size, Ends ends) throws IOException {
        ByteBuffer buffer = ends.buffer;
        long sent = 0;
        while (sent < size) {
            buffer.clear();
            int n = file.read(buffer, sent);
            if (n < 0) {
                break;
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                sent += ends.socket.write(buffer);
            }
        }
        return sent;
    }

    /** The two ends every contender uses: one cached file and one connected, drained socket. */
    static final class Ends {
        final Path path;
        final long size;
        final FileChannel open;
        final SocketChannel socket;
        /** The raw read/write loop's buffer: 256 KiB, the library's default buffer size. */
        final ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);

        private UringSender uring;
        private UringSender plain;

        Ends(Path path, long size, FileChannel open, SocketChannel socket) {
            this.path = path;
            this.size = size;
            this.open = open;
            this.socket = socket;
        }

        /** The io_uring sender, made on first use: only {@code ioUring} needs the Java 22 classes. */
        UringSender uring() {
            if (uring == null) {
                uring = IoUring.sender();
            }
            return uring;
        }

        /** The sender of bare calls, made on first use: only {@code bareCalls} needs the Java 22 classes. */
        UringSender plain() {
            if (plain == null) {
                plain = IoUring.plainSender();
            }
            return plain;
        }
    }
}
