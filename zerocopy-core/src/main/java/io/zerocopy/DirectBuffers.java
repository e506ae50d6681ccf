package io.zerocopy;

import java.lang.management.ManagementFactory;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The library's direct buffers, within a process-wide budget. {@code ByteBuffer.allocateDirect}
 * zeroes the memory, reserves it against {@code -XX:MaxDirectMemorySize} (past which the JDK throws
 * {@code OutOfMemoryError}) and registers a cleaner, which costs more than the whole copy of a small
 * file. So the pool allocates at most {@link #budget()} bytes in all, keeps every buffer it allocated
 * for reuse (after a burst, up to the budget stays allocated) and answers null when the budget is
 * spent: the caller then takes a path that needs no direct buffer. Idle buffers too small for a
 * request are dropped to make room for it, and a buffer lent and never given back (a handle dropped
 * unclosed) comes off the budget once the GC finds it unreachable, so the budget is spent only by
 * buffers in use or of the size asked for. The budget is read once ({@link #configuredBudget});
 * where the JVM refuses a buffer within it (a budget set above the JVM's limit, or direct memory
 * taken by something else in the process), it shrinks to what the pool holds, with one warning.
 *
 * <p>No thread and no {@code ThreadLocal}: a thread of the library's would keep its class loader
 * alive for as long as the pool holds a buffer (an application redeployed into a server).
 */
final class DirectBuffers {
    private static final Logger log = LoggerFactory.getLogger(DirectBuffers.class);

    /**
     * Most the default budget reaches: 64 MiB, a 256 KiB buffer for each of 256 transfers at once; more
     * take paths that need no buffer at little cost (docs/scale.md), so a larger pool only holds memory.
     */
    static final long DEFAULT_BUDGET_CAP = 64L << 20;

    /**
     * The heap buffer used between channels when the budget is spent: 16 KiB. A JDK channel copies it
     * through a temporary direct buffer of that size kept per platform thread, outside the budget.
     */
    static final int HEAP_FALLBACK_BYTES = 16 * 1024;

    static final DirectBuffers SHARED = new DirectBuffers(configuredBudget());

    private volatile long budget;
    /**
     * Released buffers, one shelf per capacity, the same few (likeliest in the CPU's cache) lent first;
     * lock-free, as hundreds of virtual threads piled up behind a monitor (docs/virtual-threads.md).
     * Copied on write when a new capacity is first seen, once or twice a run.
     */
    private volatile Shelf[] shelves = new Shelf[0];

    private final AtomicLong allocated = new AtomicLong();

    /** Every buffer allocated and not yet off the budget, watched for the GC finding it unreachable. */
    private final Set<Allocated> watched = ConcurrentHashMap.newKeySet();

    private final ReferenceQueue<ByteBuffer> unreachable = new ReferenceQueue<>();

    private boolean refusedBefore;

    DirectBuffers(long budget) {
        this.budget = budget;
    }

    /** The most bytes this pool allocates in all. */
    long budget() {
        return budget;
    }

    /** The bytes this pool has allocated, lent out or idle. */
    long allocated() {
        reclaim();
        return allocated.get();
    }

    /**
     * A cleared direct buffer of at least {@code size} bytes, idle or new, or null if the budget is
     * spent; never waits. A new one has exactly {@code size} bytes, so callers ask for their usual
     * size, not one small transfer's, or the pool fills with buffers too small for the next.
     */
    ByteBuffer acquire(int size) {
        Shelf[] all = shelves;
        ByteBuffer b = null;
        for (int i = 0; b == null && i < all.length; i++) {
            b = all[i].capacity == size ? all[i].pop() : null;
        }
        for (int i = 0; b == null && i < all.length; i++) {
            b = all[i].capacity > size ? all[i].pop() : null;
        }
        if (b != null) {
            return b.clear();
        }
        b = allocateWithinBudget(size);
        return b != null || reclaim() + dropIdleSmallerThan(size) == 0 ? b : allocateWithinBudget(size);
    }

    private ByteBuffer allocateWithinBudget(int size) {
        for (long a = allocated.get(); a + size <= budget; a = allocated.get()) {
            if (allocated.compareAndSet(a, a + size)) {
                return allocate(size);
            }
        }
        return null;
    }

    /** A new buffer of {@code size} bytes already counted in {@link #allocated}, or null if the JVM refuses it. */
    private ByteBuffer allocate(int size) {
        try {
            ByteBuffer buffer = ByteBuffer.allocateDirect(size);
            watched.add(new Allocated(buffer, unreachable));
            return buffer;
        } catch (OutOfMemoryError e) {
            long held = allocated.addAndGet(-size);
            long was = budget;
            if (lowerBudget(held)) {
                log.warn(
                        "The JVM refused a direct buffer of {} bytes with {} of the library's budget of {} allocated ({});"
                                + " the budget is now {} bytes: -XX:MaxDirectMemorySize or -D{} sets it",
                        size,
                        held,
                        was,
                        e.getMessage(),
                        held,
                        TransferOptions.DIRECT_MEMORY_PROPERTY);
            }
            return null;
        }
    }

    /**
     * Lowers the budget to {@code held} if that is lower; true the first time only, for the one
     * warning: threads refused at once lower it each to what it held, never raise it.
     */
    private synchronized boolean lowerBudget(long held) {
        if (held < budget) {
            budget = held;
        }
        boolean first = !refusedBefore;
        refusedBefore = true;
        return first;
    }

    /** A buffer the pool allocated, which the GC enqueues once nothing reaches it. */
    private static final class Allocated extends PhantomReference<ByteBuffer> {
        final int size;

        Allocated(ByteBuffer buffer, ReferenceQueue<ByteBuffer> queue) {
            super(buffer, queue);
            this.size = buffer.capacity();
        }
    }

    /** Takes the buffers the GC found lent and never given back off the budget; the bytes that freed. */
    private long reclaim() {
        long freed = 0;
        for (Reference<? extends ByteBuffer> r = unreachable.poll(); r != null; r = unreachable.poll()) {
            freed += forget((Allocated) r);
        }
        return freed;
    }

    /**
     * Drops idle buffers smaller than {@code size} where that makes room for it; the bytes that
     * freed. Where it would not, they stay for the smaller requests they serve.
     */
    private long dropIdleSmallerThan(int size) {
        List<ByteBuffer> taken = new ArrayList<>();
        long room = budget - allocated.get();
        for (Shelf shelf : shelves) {
            while (shelf.capacity < size && room < size) {
                ByteBuffer idle = shelf.pop();
                if (idle == null) {
                    break;
                }
                taken.add(idle);
                room += idle.capacity();
            }
        }
        if (room < size) {
            taken.forEach(this::release);
            return 0;
        }
        long freed = 0;
        for (ByteBuffer idle : taken) {
            for (Allocated a : watched) {
                if (a.refersTo(idle)) {
                    a.clear(); // the JDK's own cleaner frees the memory once the GC finds the buffer
                    freed += forget(a);
                    break;
                }
            }
        }
        return freed;
    }

    private long forget(Allocated buffer) {
        if (!watched.remove(buffer)) {
            return 0;
        }
        allocated.addAndGet(-buffer.size);
        return buffer.size;
    }

    /** Takes back a buffer from {@link #acquire}; the caller must not use it afterwards. Never waits. */
    void release(ByteBuffer buffer) {
        int capacity = buffer.capacity();
        for (Shelf shelf : shelves) {
            if (shelf.capacity == capacity) {
                shelf.push(buffer);
                return;
            }
        }
        newShelf(capacity).push(buffer);
    }

    /** The shelf for {@code capacity}, made now unless another thread just made it. */
    private synchronized Shelf newShelf(int capacity) {
        Shelf[] all = shelves;
        for (Shelf shelf : all) {
            if (shelf.capacity == capacity) {
                return shelf;
            }
        }
        Shelf shelf = new Shelf(capacity);
        Shelf[] more = Arrays.copyOf(all, all.length + 1);
        more[all.length] = shelf;
        shelves = more;
        return shelf;
    }

    /**
     * Idle buffers of one capacity: the few a steady load uses in {@link Slots}, which allocate
     * nothing; the rest of a burst's in a lock-free stack (last in, first out, as the slots are).
     */
    private static final class Shelf {
        final int capacity;
        private final Slots<ByteBuffer> slots = new Slots<>();
        private final ConcurrentLinkedDeque<ByteBuffer> rest = new ConcurrentLinkedDeque<>();

        Shelf(int capacity) {
            this.capacity = capacity;
        }

        void push(ByteBuffer buffer) {
            if (!slots.put(buffer)) {
                rest.push(buffer);
            }
        }

        ByteBuffer pop() {
            ByteBuffer idle = slots.take();
            return idle != null ? idle : rest.pollFirst();
        }
    }

    /** Gives a buffer lent by the shared pool back to it; null is nothing to give back. */
    static void giveBack(ByteBuffer lent) {
        if (lent != null) {
            SHARED.release(lent);
        }
    }

    /** {@value TransferOptions#DIRECT_MEMORY_PROPERTY}, else the default derived from the JVM's limit. */
    static long configuredBudget() {
        String configured = System.getProperty(TransferOptions.DIRECT_MEMORY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            long bytes = parseSize(configured.trim());
            if (bytes >= 0) {
                return bytes;
            }
            log.warn(
                    "ignoring system property {}={}: expected a size in bytes such as 33554432, 32768k or 32m",
                    TransferOptions.DIRECT_MEMORY_PROPERTY,
                    configured);
        }
        return defaultBudget(maxDirectMemory());
    }

    /** A quarter of the JVM's direct memory limit, at most {@link #DEFAULT_BUDGET_CAP}. */
    static long defaultBudget(long maxDirectMemory) {
        return Math.min(DEFAULT_BUDGET_CAP, maxDirectMemory / 4);
    }

    /**
     * {@code -XX:MaxDirectMemorySize} from the launch arguments (the JDK keeps it to itself), else the
     * heap's maximum. Without {@code java.management} (a jlink image), the process's own command
     * line, which lacks only what {@code JAVA_TOOL_OPTIONS} and argument files add.
     */
    static long maxDirectMemory() {
        long limit = -1;
        for (String argument : launchArguments()) {
            if (argument.startsWith("-XX:MaxDirectMemorySize=")) {
                limit = parseSize(argument.substring("-XX:MaxDirectMemorySize=".length()));
            }
        }
        return limit > 0 ? limit : Runtime.getRuntime().maxMemory();
    }

    private static List<String> launchArguments() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (LinkageError | RuntimeException e) {
            return ProcessHandle.current().info().arguments().map(List::of).orElse(List.of());
        }
    }

    /** A size as the JVM writes them: digits, then k, m, g or t (either case) or nothing; -1 if malformed. */
    static long parseSize(String text) {
        String s = text.toLowerCase(Locale.ROOT);
        int shift = 0;
        if (!s.isEmpty()) {
            int unit = "kmgt".indexOf(s.charAt(s.length() - 1));
            if (unit >= 0) {
                shift = 10 * (unit + 1);
                s = s.substring(0, s.length() - 1);
            }
        }
        try {
            long n = Long.parseLong(s);
            return n < 0 || n > Long.MAX_VALUE >> shift ? -1 : n << shift;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public String toString() {
        return "DirectBuffers{" + allocated() + " of " + budget + " bytes allocated}";
    }
}
