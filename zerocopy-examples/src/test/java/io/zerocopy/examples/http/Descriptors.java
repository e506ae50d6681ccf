package io.zerocopy.examples.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/** Open file descriptors of this JVM, counted in Linux's {@code /proc/self/fd}. */
final class Descriptors {
    private static final Path FDS = Path.of("/proc/self/fd");

    private Descriptors() {}

    static boolean countable() {
        return Files.isDirectory(FDS);
    }

    static int open() throws IOException {
        try (Stream<Path> entries = Files.list(FDS)) {
            return (int) entries.count();
        }
    }

    /** What each open descriptor points to ({@code socket:[n]}, {@code anon_inode:[eventpoll]}, a path), sorted. */
    static List<String> targets() throws IOException {
        List<String> targets = new ArrayList<>();
        try (Stream<Path> entries = Files.list(FDS)) {
            for (Path entry : entries.toList()) {
                try {
                    targets.add(Files.readSymbolicLink(entry).toString());
                } catch (IOException e) {
                    targets.add("closed while listed");
                }
            }
        }
        Collections.sort(targets);
        return targets;
    }

    /**
     * Polls, with a GC between looks (the JDK releases some descriptors late), until at most
     * {@code expected} are open or 30 s have passed; returns the last count.
     */
    static int awaitAtMost(int expected) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int now = open();
        while (now > expected && System.nanoTime() < deadline) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
            now = open();
        }
        return now;
    }
}
