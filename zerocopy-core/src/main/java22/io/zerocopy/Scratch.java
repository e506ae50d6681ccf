package io.zerocopy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * The memory the native calls use (errno, a {@code struct stat}, the name being opened, a bounce
 * buffer), made once rather than per file, since each native allocation registers a cleaner. Lent
 * to one thread at a time by {@link #lend}; freed by the GC once no slot keeps it.
 */
final class Scratch implements AutoCloseable {
    /**
     * Idle pieces, lent to any thread: one is held only across native calls, so about one per CPU
     * is in use, and a thread of one task costs no allocation and cleaner per file. Not per thread:
     * a thread's own would keep this class, and its class loader, alive as long as the thread (a
     * server's pool outlives an application redeployed into it).
     */
    private static final Slots<Scratch> IDLE = new Slots<>();

    private final Arena arena = Arena.ofAuto();
    final MemorySegment callState = LinuxCalls.callState(arena);
    final MemorySegment stat = arena.allocate(LinuxFile.Stat.BYTES, 8);
    /** Where {@link LinuxFile.Stat#attributes} copies {@link #stat} to read it. */
    final long[] statWords = LinuxFile.Stat.words();
    /** For a step's calls on this thread ({@code sendfile}, {@code poll}, a socket's counters). */
    final LinuxCalls.State calls = new LinuxCalls.State(arena);

    private MemorySegment name = arena.allocate(256);
    /** A {@code struct open_how} for {@code openat2}. */
    final MemorySegment openHow = arena.allocate(LinuxCalls.OPEN_HOW_BYTES, 8);

    private MemorySegment bounce;

    private Scratch() {}

    /** Memory for this thread's calls until {@link #close}: an idle piece, or one made now. */
    static Scratch lend() {
        Scratch idle = IDLE.take();
        return idle != null ? idle : new Scratch();
    }

    /**
     * As {@link #lend()}, or null where the JVM refuses the memory: it counts against
     * {@code -XX:MaxDirectMemorySize}, and a file not yet opened can still go the JDK way.
     */
    static Scratch lendOrNull() {
        try {
            return lend();
        } catch (OutOfMemoryError e) {
            return null;
        }
    }

    /** Done for now: back to a slot, or to the GC when every slot is full. */
    @Override
    public void close() {
        IDLE.put(this);
    }

    /**
     * As {@link #name(Path)}, or null where the JVM refuses the memory a long name needs: a
     * file not yet opened then goes the JDK way.
     */
    MemorySegment nameOrNull(Path path) {
        try {
            return name(path);
        } catch (OutOfMemoryError e) {
            return null;
        }
    }

    /** {@code path} as the JDK hands it to the kernel, NUL-terminated; null where it cannot be known ({@link KernelNames}). */
    MemorySegment name(Path path) {
        String text = KernelNames.text(path);
        if (text == null) {
            return null;
        }
        if (KernelNames.spellsAsAscii(text)) {
            MemorySegment into = room(text.length() + 1); // the common name: no array on the way
            for (int i = 0; i < text.length(); i++) {
                into.set(ValueLayout.JAVA_BYTE, i, (byte) text.charAt(i));
            }
            into.set(ValueLayout.JAVA_BYTE, text.length(), (byte) 0);
            return into;
        }
        byte[] bytes = KernelNames.exactBytes(text);
        return bytes == null ? null : terminated(bytes);
    }

    /**
     * One name beneath a directory, NUL-terminated, encoded as the JDK encodes a new path's name
     * ({@code fs.getPath(name)}, which already refused any character it cannot encode).
     */
    MemorySegment name(String entry) {
        return terminated(KernelNames.ofEntry(entry));
    }

    /** {@code bytes}, NUL-terminated, in memory reused by the next name. */
    MemorySegment terminated(byte[] bytes) {
        MemorySegment into = room(bytes.length + 1);
        MemorySegment.copy(bytes, 0, into, ValueLayout.JAVA_BYTE, 0, bytes.length);
        into.set(ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return into;
    }

    /** The memory names are spelled in, at least {@code bytes} long. */
    private MemorySegment room(int bytes) {
        if (bytes > name.byteSize()) {
            name = arena.allocate(Math.max(bytes, 2 * name.byteSize()));
        }
        return name;
    }

    /** Native memory for a read into a heap buffer: {@code bytes}, or less. */
    MemorySegment bounce(int bytes) {
        if (bounce == null) {
            bounce = arena.allocate(DirectBuffers.HEAP_FALLBACK_BYTES);
        }
        return bounce.asSlice(0, Math.min(bytes, bounce.byteSize()));
    }
}
