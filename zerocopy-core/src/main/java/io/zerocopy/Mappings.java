package io.zerocopy;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps file regions read-only and unmaps them as soon as they are released, instead of waiting for
 * the garbage collector to find the buffer. This Java 17 to 21 version releases with
 * {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}), as Netty and Lucene do;
 * that warns from Java 23, so the jar's Java 22 part maps into an {@code Arena} instead. Without the
 * hook the garbage collector unmaps, holding address space longer (a debug line says so once). A
 * released buffer must not be touched again: unmapped memory crashes the JVM on Java 17.
 */
final class Mappings {
    private static final Logger log = LoggerFactory.getLogger(Mappings.class);

    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Object unsafe = null;
        Method invokeCleaner = null;
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            unsafe = theUnsafe.get(null);
            invokeCleaner = unsafeClass.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("no prompt unmapping on this JDK; mappings are released by the garbage collector", e);
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
    }

    private Mappings() {}

    /** The most bytes one mapping may hold: {@code FileChannel.map}'s limit. */
    static long maxBytes() {
        return Integer.MAX_VALUE;
    }

    /** How this JDK releases mappings, in words (for logs and tests). */
    static String releaseMethod() {
        return INVOKE_CLEANER != null ? "Unsafe.invokeCleaner" : "garbage collector";
    }

    /** Maps {@code [position, position + size)} of {@code file} read-only; the caller closes the mapping. */
    static Mapping mapReadOnly(FileChannel file, long position, long size) throws IOException {
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
}
