package io.zerocopy.tests;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/** What this JVM holds open, read from Linux's {@code /proc/self}: file descriptors and mappings. */
final class ProcSelf {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final Path MAPS = Path.of("/proc/self/maps");

    private ProcSelf() {}

    /**
     * Connects and closes one loopback socket channel, so that what the JDK opens on the first use
     * of a socket channel and keeps for the life of the JVM is open before a baseline is taken. JDK
     * 25 keeps one socket that way (JDK 17 none): without this, a test class that is the first to
     * use sockets in its JVM sees one descriptor more at its end than at its start.
     */
    static void openWhatTheJdkKeeps() throws IOException {
        try (ServerSocketChannel server =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept()) {
            if (!client.isConnected() || accepted == null) {
                throw new IOException("loopback connection for the warm-up failed");
            }
        }
    }

    /** Whether {@code /proc/self} can be read here (Linux). */
    static boolean available() {
        return Files.isDirectory(FDS) && Files.isReadable(MAPS);
    }

    /** The number of open file descriptors. */
    static int openDescriptors() throws IOException {
        try (Stream<Path> entries = Files.list(FDS)) {
            return (int) entries.count();
        }
    }

    /** What each open descriptor points to (a file, {@code socket:[n]}, {@code anon_inode:...}), sorted. */
    static List<String> descriptorTargets() throws IOException {
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
     * Waits, with a GC between looks (the JDK frees some of its own objects late), until at most
     * {@code expected} descriptors are open or 30 s have passed; returns the last count.
     */
    static int awaitDescriptorsAtMost(int expected) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int open = openDescriptors();
        while (open > expected && System.nanoTime() < deadline) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
            open = openDescriptors();
        }
        return open;
    }

    /** The mappings of files under {@code dir}. */
    static long mappingsUnder(Path dir) throws IOException {
        String prefix = dir.toRealPath().toString();
        try (Stream<String> lines = Files.lines(MAPS)) {
            return lines.filter(line -> line.contains(prefix)).count();
        }
    }
}
