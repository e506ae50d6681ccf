package io.zerocopy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Maps file regions read-only and unmaps them as soon as they are released, not when the garbage
 * collector finds the buffer: the Java 22 part of a multi-release jar, which maps each region into
 * a shared {@code Arena} whose close unmaps it at once (JEP 454); Java 17 to 21 release through
 * {@code Unsafe.invokeCleaner}, which warns from Java 23. Shared, not confined: a {@code Transfer}
 * may be advanced and closed by any thread, one at a time, and a confined arena's buffer refuses
 * other threads; a shared arena's close costs a handshake with the JVM's threads, once per window.
 * A released buffer must not be touched again.
 */
final class Mappings {

    private Mappings() {}

    /** The most bytes one mapping may hold: what an arena's mapping still wraps as one {@code ByteBuffer}. */
    static long maxBytes() {
        return Integer.MAX_VALUE - 8;
    }

    /** How this JDK releases mappings, in words (for logs and tests). */
    static String releaseMethod() {
        return "Arena.close";
    }

    /** Maps {@code [position, position + size)} of {@code file} read-only; the caller closes the mapping. */
    static Mapping mapReadOnly(FileChannel file, long position, long size) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            ByteBuffer buffer = file.map(FileChannel.MapMode.READ_ONLY, position, size, arena)
                    .asByteBuffer();
            return new Mapping(
                    buffer, Cleaners.register(buffer, arena::close)::clean); // GC never closes a shared arena
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }
}
