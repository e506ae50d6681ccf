package io.zerocopy.tests;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** What an application that holds all of the JVM's direct memory does, for the child JVMs that need it so. */
public final class DirectMemoryHog {
    private DirectMemoryHog() {}

    /** Direct buffers taken until the JVM refuses even one byte; direct memory is spent while they are reachable. */
    public static List<ByteBuffer> holdAll() {
        List<ByteBuffer> held = new ArrayList<>();
        for (int size = 64 * 1024; size >= 1; size /= 2) {
            try {
                while (true) {
                    held.add(ByteBuffer.allocateDirect(size));
                }
            } catch (OutOfMemoryError spent) {
                // the next smaller size fills what is left
            }
        }
        return held;
    }
}
