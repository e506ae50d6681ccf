package io.zerocopy;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps file regions read-only and unmaps them as soon as they are released, instead of waiting for
 * the garbage collector to find the buffer.
 *
 * <ul>
 *   <li><b>Java 22 and later</b>: {@code FileChannel.map(mode, position, size, Arena)} with a
 *       confined {@code Arena}; closing the arena unmaps the region at once (JEP 454). Called
 *       reflectively, because the library is compiled for Java 17.</li>
 *   <li><b>Java 17 to 21</b>: {@code FileChannel.map(mode, position, size)}, released with
 *       {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}), the same hook
 *       Netty and Lucene use. From Java 23 that method warns, which is why 22+ uses arenas.</li>
 *   <li>If neither hook is available the mapping is left to the garbage collector, which is correct
 *       but holds address space longer; a debug line says so once.</li>
 * </ul>
 * A released buffer must not be touched again: accessing unmapped memory crashes the JVM on Java 17.
 */
final class Mappings {
    private static final Logger log = LoggerFactory.getLogger(Mappings.class);

    /** A mapped region and the means to unmap it. Closing it twice is harmless. */
    static final class Mapping implements AutoCloseable {
        private final ByteBuffer buffer;
        private Runnable release;

        private Mapping(ByteBuffer buffer, Runnable release) {
            this.buffer = buffer;
            this.release = release;
        }

        ByteBuffer buffer() {
            return buffer;
        }

        /** Unmaps the region; the buffer must not be touched afterwards. */
        @Override
        public void close() {
            Runnable r = release;
            release = null;
            if (r != null) {
                r.run();
            }
        }
    }

    private static final Method ARENA_OF_CONFINED;
    private static final Method MAP_WITH_ARENA;
    private static final Method SEGMENT_AS_BYTE_BUFFER;
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Method ofConfined = null;
        Method mapWithArena = null;
        Method asByteBuffer = null;
        Object unsafe = null;
        Method invokeCleaner = null;
        try {
            if (Runtime.version().feature() >= 22) {
                Class<?> arena = Class.forName("java.lang.foreign.Arena");
                ofConfined = arena.getMethod("ofConfined");
                mapWithArena = FileChannel.class.getMethod("map", FileChannel.MapMode.class, long.class, long.class, arena);
                asByteBuffer = Class.forName("java.lang.foreign.MemorySegment").getMethod("asByteBuffer");
            } else {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                unsafe = theUnsafe.get(null);
                invokeCleaner = unsafeClass.getMethod("invokeCleaner", ByteBuffer.class);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("no prompt unmapping on this JDK; mappings are released by the garbage collector", e);
            ofConfined = null;
            mapWithArena = null;
            asByteBuffer = null;
            unsafe = null;
            invokeCleaner = null;
        }
        ARENA_OF_CONFINED = ofConfined;
        MAP_WITH_ARENA = mapWithArena;
        SEGMENT_AS_BYTE_BUFFER = asByteBuffer;
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
    }

    private Mappings() {
    }

    /** How this JDK releases mappings, in words (for logs and tests). */
    static String releaseMethod() {
        if (MAP_WITH_ARENA != null) {
            return "Arena.close";
        }
        return INVOKE_CLEANER != null ? "Unsafe.invokeCleaner" : "garbage collector";
    }

    /** Maps {@code [position, position + size)} of {@code file} read-only; the caller closes the mapping. */
    static Mapping mapReadOnly(FileChannel file, long position, long size) throws IOException {
        if (MAP_WITH_ARENA != null) {
            return mapInArena(file, position, size);
        }
        ByteBuffer buffer = file.map(FileChannel.MapMode.READ_ONLY, position, size);
        return new Mapping(buffer, () -> invokeCleaner(buffer));
    }

    private static void invokeCleaner(ByteBuffer buffer) {
        if (INVOKE_CLEANER != null) {
            try {
                INVOKE_CLEANER.invoke(UNSAFE, buffer);
            } catch (ReflectiveOperationException e) {
                log.debug("could not unmap; leaving it to the garbage collector", e);
            }
        }
    }

    private static Mapping mapInArena(FileChannel file, long position, long size) throws IOException {
        AutoCloseable arena;
        ByteBuffer buffer;
        try {
            arena = (AutoCloseable) ARENA_OF_CONFINED.invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Arena.ofConfined failed", e);
        }
        try {
            Object segment = MAP_WITH_ARENA.invoke(file, FileChannel.MapMode.READ_ONLY, position, size, arena);
            buffer = (ByteBuffer) SEGMENT_AS_BYTE_BUFFER.invoke(segment);
        } catch (InvocationTargetException e) {
            closeArena(arena);
            Throwable cause = e.getCause();
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IOException(cause);
        } catch (ReflectiveOperationException e) {
            closeArena(arena);
            throw new IllegalStateException("FileChannel.map with an Arena failed", e);
        }
        return new Mapping(buffer, () -> closeArena(arena));
    }

    private static void closeArena(AutoCloseable arena) {
        try {
            arena.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not close the mapping's arena", e);
        }
    }
}
