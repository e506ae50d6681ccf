package io.zerocopy.benchmarks.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * One io_uring instance with its submission and completion rings mapped into this process, and one
 * registered file slot for a file opened by the ring itself. Used by one thread only (it is set up
 * {@code SINGLE_ISSUER | DEFER_TASKRUN} where the kernel allows): fill entries with {@link #next},
 * then {@link #submitAndWait} submits them and waits for all their completions in one
 * {@code io_uring_enter} when nothing interrupts it.
 *
 * <p>The structure offsets are those of {@code <linux/io_uring.h>}, which are the same on every
 * 64-bit architecture.
 */
@SuppressWarnings("restricted")
final class Ring implements AutoCloseable {
    /** Submission entries: a transfer uses at most four (open, read, send, close). */
    static final int ENTRIES = 8;

    // opcodes (enum io_uring_op)
    static final byte OP_OPENAT = 18;
    static final byte OP_CLOSE = 19;
    static final byte OP_READ = 22;
    static final byte OP_SEND = 26;

    // sqe flags
    static final byte FIXED_FILE = 1;
    static final byte IO_LINK = 1 << 2;

    private static final int SETUP_SUBMIT_ALL = 1 << 7;
    private static final int SETUP_COOP_TASKRUN = 1 << 8;
    private static final int SETUP_SINGLE_ISSUER = 1 << 12;
    private static final int SETUP_DEFER_TASKRUN = 1 << 13;
    private static final int FEAT_SINGLE_MMAP = 1;
    private static final int ENTER_GETEVENTS = 1;
    private static final int REGISTER_FILES = 2;
    private static final long OFF_SQ_RING = 0L;
    private static final long OFF_CQ_RING = 0x8000000L;
    private static final long OFF_SQES = 0x10000000L;
    private static final int PROT_READ_WRITE = 3;
    private static final int MAP_SHARED_POPULATE = 0x1 | 0x8000;
    private static final int EINVAL = 22;

    private static final int SQE_SIZE = 64;
    private static final int CQE_SIZE = 16;
    private static final int PARAMS_SIZE = 120;

    private static final VarHandle INT = JAVA_INT.varHandle();

    /**
     * How completion work is run, a knob for measuring ({@code -Dzerocopy.uring.taskrun}): {@code defer}
     * (the default: {@code SINGLE_ISSUER | DEFER_TASKRUN}, run only inside this thread's wait),
     * {@code coop} ({@code COOP_TASKRUN}) or {@code plain} (neither).
     */
    static final String TASKRUN = System.getProperty("zerocopy.uring.taskrun", "defer");

    private final Arena arena = Arena.ofShared();
    private final MemorySegment callState = arena.allocate(Syscalls.CALL_STATE);
    private final int fd;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final long sqTail;
    private final int sqMask;
    private final long cqHead;
    private final long cqTail;
    private final int cqMask;
    private final long cqes;
    private int tail;
    private int pending;
    private boolean closed;

    Ring() throws IOException {
        MemorySegment params = arena.allocate(PARAMS_SIZE, 8);
        int flags = switch (TASKRUN) {
            case "defer" -> SETUP_SUBMIT_ALL | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN;
            case "coop" -> SETUP_SUBMIT_ALL | SETUP_COOP_TASKRUN;
            case "plain" -> SETUP_SUBMIT_ALL;
            default ->
                throw new IllegalArgumentException(
                        "zerocopy.uring.taskrun: " + TASKRUN + " (expected: defer, coop or plain)");
        };
        long ring = setup(params, flags);
        if (ring < 0 && Syscalls.errno(callState) == EINVAL) {
            // a kernel before 6.1 knows no DEFER_TASKRUN
            params.fill((byte) 0);
            ring = setup(params, SETUP_SUBMIT_ALL);
        }
        if (ring < 0) {
            IOException failure = Syscalls.failure("io_uring_setup", Syscalls.errno(callState));
            arena.close();
            throw failure;
        }
        this.fd = (int) ring;
        try {
            int sqEntries = params.get(JAVA_INT, 0);
            int cqEntries = params.get(JAVA_INT, 4);
            int features = params.get(JAVA_INT, 20);
            // struct io_sqring_offsets at 40, struct io_cqring_offsets at 80
            long sqArray = params.get(JAVA_INT, 40 + 24);
            long sqSize = sqArray + 4L * sqEntries;
            long cqSize = params.get(JAVA_INT, 80 + 20) + (long) CQE_SIZE * cqEntries;
            if ((features & FEAT_SINGLE_MMAP) != 0) {
                sqRing = map(Math.max(sqSize, cqSize), OFF_SQ_RING);
                cqRing = sqRing;
            } else {
                sqRing = map(sqSize, OFF_SQ_RING);
                cqRing = map(cqSize, OFF_CQ_RING);
            }
            sqes = map((long) SQE_SIZE * sqEntries, OFF_SQES);
            sqTail = params.get(JAVA_INT, 40 + 4);
            sqMask = sqRing.get(JAVA_INT, params.get(JAVA_INT, 40 + 8));
            cqHead = params.get(JAVA_INT, 80);
            cqTail = params.get(JAVA_INT, 80 + 4);
            cqMask = cqRing.get(JAVA_INT, params.get(JAVA_INT, 80 + 8));
            cqes = params.get(JAVA_INT, 80 + 20);
            for (int i = 0; i < sqEntries; i++) {
                // entry i of the submission queue is always slot i of the entry array
                sqRing.set(JAVA_INT, sqArray + 4L * i, i);
            }
            tail = (int) INT.getAcquire(sqRing, sqTail);
            registerEmptySlot();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private long setup(MemorySegment params, int flags) {
        params.set(JAVA_INT, 8, flags);
        return Syscalls.syscall(callState, Syscalls.IO_URING_SETUP, ENTRIES, params.address(), 0, 0, 0, 0);
    }

    private MemorySegment map(long size, long offset) throws IOException {
        long address = Syscalls.mmap(callState, size, PROT_READ_WRITE, MAP_SHARED_POPULATE, fd, offset);
        if (address == -1L) {
            throw Syscalls.failure("mmap", Syscalls.errno(callState));
        }
        return MemorySegment.ofAddress(address).reinterpret(size);
    }

    /** Registers a table of one empty file slot: index 0, where {@code OP_OPENAT} can put a file. */
    private void registerEmptySlot() throws IOException {
        MemorySegment fds = arena.allocate(JAVA_INT);
        fds.set(JAVA_INT, 0, -1);
        long r = Syscalls.syscall(callState, Syscalls.IO_URING_REGISTER, fd, REGISTER_FILES, fds.address(), 1, 0, 0);
        if (r < 0) {
            throw Syscalls.failure("io_uring_register(IORING_REGISTER_FILES)", Syscalls.errno(callState));
        }
    }

    /** The next submission entry, zeroed, with {@code user_data} = its index in this submission. */
    MemorySegment next(byte opcode, byte flags, int fd) {
        if (pending == ENTRIES) {
            throw new IllegalStateException("more than " + ENTRIES + " entries in one submission");
        }
        MemorySegment sqe = sqes.asSlice((long) (tail & sqMask) * SQE_SIZE, SQE_SIZE);
        sqe.fill((byte) 0);
        sqe.set(JAVA_BYTE, 0, opcode);
        sqe.set(JAVA_BYTE, 1, flags);
        sqe.set(JAVA_INT, 4, fd);
        sqe.set(JAVA_LONG, 32, pending);
        tail++;
        pending++;
        return sqe;
    }

    static void address(MemorySegment sqe, long address, int length) {
        sqe.set(JAVA_LONG, 16, address);
        sqe.set(JAVA_INT, 24, length);
    }

    static void offset(MemorySegment sqe, long offset) {
        sqe.set(JAVA_LONG, 8, offset);
    }

    /** The op's own flags: {@code open_flags}, {@code rw_flags}, {@code msg_flags}. */
    static void opFlags(MemorySegment sqe, int flags) {
        sqe.set(JAVA_INT, 28, flags);
    }

    /** A registered file slot for an open or a close: {@code file_index}, which counts from 1. */
    static void fileSlot(MemorySegment sqe, int slot) {
        sqe.set(JAVA_INT, 44, slot + 1);
    }

    /**
     * Submits the entries filled since the last call and waits for all their completions; writes
     * each one's result into {@code results[user_data]}. One {@code io_uring_enter}, more only when a
     * signal interrupts the wait.
     */
    void submitAndWait(int[] results) throws IOException {
        int count = pending;
        pending = 0;
        INT.setRelease(sqRing, sqTail, tail);
        int toSubmit = count;
        int seen = 0;
        while (seen < count) {
            long r = Syscalls.syscall(
                    callState, Syscalls.IO_URING_ENTER, fd, toSubmit, count - seen, ENTER_GETEVENTS, 0, 0);
            if (r < 0) {
                int errno = Syscalls.errno(callState);
                if (errno != Syscalls.EINTR) {
                    throw Syscalls.failure("io_uring_enter", errno);
                }
            } else {
                toSubmit -= (int) Math.min(r, toSubmit);
            }
            seen += reap(results);
        }
    }

    private int reap(int[] results) {
        int head = (int) INT.get(cqRing, cqHead);
        int end = (int) INT.getAcquire(cqRing, cqTail);
        int n = 0;
        for (; head != end; head++, n++) {
            long cqe = cqes + (long) (head & cqMask) * CQE_SIZE;
            int index = (int) cqRing.get(JAVA_LONG, cqe);
            results[index] = cqRing.get(JAVA_INT, cqe + 8);
        }
        INT.setRelease(cqRing, cqHead, head);
        return n;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // closing the ring's descriptor ends its requests and frees the registered file slot
        Syscalls.close(callState, fd);
        if (sqRing != null) {
            Syscalls.munmap(callState, sqRing);
        }
        if (cqRing != null && cqRing != sqRing) {
            Syscalls.munmap(callState, cqRing);
        }
        if (sqes != null) {
            Syscalls.munmap(callState, sqes);
        }
        arena.close();
    }

    @Override
    public String toString() {
        return "io_uring(fd=" + fd + ", entries=" + ENTRIES + ", taskrun=" + TASKRUN + ")";
    }
}
