package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run by {@link DirectMemoryShortTest} in a JVM of its own with a small direct memory limit that the
 * application holds whole: {@code at-first-use} makes the library's first call then, frees the
 * memory and copies again; {@code after-first-use} copies once, then copies from new threads while
 * the memory is held; {@code none} copies with no direct memory at all. Each copy is a 1000-byte
 * file to a loopback socket and to a new file, checked byte for byte; one {@code result} line per
 * copy after the first, {@code ok} or the failure.
 */
final class DirectMemoryShortMain {
    private static final int SIZE = 1000;

    private DirectMemoryShortMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        byte[] content = TestFiles.randomBytes(SIZE, Long.parseLong(args[1]));
        Path file = TestFiles.write(dir.resolve("source"), content);
        switch (args[2]) {
            case "at-first-use" -> {
                List<ByteBuffer> held = DirectMemoryHog.holdAll();
                System.out.println("first " + outcome(file, content, dir, 0));
                held.clear();
                awaitDirectMemoryFree();
                for (int i = 1; i <= 3; i++) {
                    System.out.println("result " + outcome(file, content, dir, i));
                }
            }
            case "after-first-use" -> {
                System.out.println("first " + outcome(file, content, dir, 0));
                List<ByteBuffer> held = DirectMemoryHog.holdAll();
                for (int i = 1; i <= 3; i++) {
                    int n = i;
                    String[] outcome = new String[1];
                    Thread thread = new Thread(() -> outcome[0] = outcome(file, content, dir, n));
                    thread.start();
                    thread.join(TimeUnit.SECONDS.toMillis(60));
                    System.out.println("result " + outcome[0]);
                }
                System.out.println("held " + held.size() + " buffers");
            }
            case "none" -> {
                for (int i = 1; i <= 3; i++) {
                    System.out.println("result " + outcome(file, content, dir, i));
                }
            }
            default -> throw new IllegalArgumentException(args[2]);
        }
        System.out.println("done");
    }

    /** Polls, with garbage collections, until the JVM lends a direct buffer again. */
    private static void awaitDirectMemoryFree() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            System.gc();
            try {
                ByteBuffer.allocateDirect(64 * 1024);
                return;
            } catch (OutOfMemoryError stillHeld) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval
            }
        }
        throw new AssertionError("direct memory not freed");
    }

    /** Copies {@code file} to a loopback socket and to a new file; "ok", or the failure. */
    private static String outcome(Path file, byte[] content, Path dir, int n) {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel sender = SocketChannel.open(server.getLocalAddress());
                    SocketChannel receiver = server.accept()) {
                long sent = Transfers.copy(file, sender);
                byte[] received = new byte[SIZE];
                ByteBuffer into = ByteBuffer.wrap(received);
                while (into.hasRemaining() && receiver.read(into) >= 0) {
                    // the 1000 bytes are in the socket's buffer already
                }
                if (sent != SIZE || !Arrays.equals(received, content)) {
                    return "wrong bytes to the socket: " + sent;
                }
            }
            Path copy = dir.resolve("copy-" + n);
            Transfers.copy(file, copy);
            return Arrays.equals(Files.readAllBytes(copy), content) ? "ok" : "wrong bytes to the file";
        } catch (Throwable e) {
            return "failed: " + e;
        }
    }
}
