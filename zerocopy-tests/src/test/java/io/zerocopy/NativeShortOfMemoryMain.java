package io.zerocopy;

import io.zerocopy.tests.DirectMemoryHog;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Run by {@link NativeShortOfMemoryTest} with native access and a small direct memory limit that
 * it fills: with every idle piece of the native calls' memory taken, files opened natively still
 * close (their descriptors gone from {@code /proc/self/fd}), and a path too long for the memory at
 * hand still opens, the JDK way. Prints one {@code result} line for each, {@code ok} or what went wrong.
 */
final class NativeShortOfMemoryMain {
    private NativeShortOfMemoryMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        byte[] content = new byte[1000];
        Arrays.fill(content, (byte) 7);
        Path file = Files.write(dir.resolve("source"), content);
        Path deep = dir;
        for (int i = 0; i < 4; i++) {
            deep = deep.resolve("d".repeat(100) + i); // a path of over 400 bytes, beyond the name memory at hand
        }
        Files.createDirectories(deep);
        Path longName = Files.write(deep.resolve("source"), content);

        List<OpenFile> opened = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            opened.add(OpenFile.open(file));
        }
        if (!opened.get(0).openedNatively()) {
            throw new IllegalStateException("not opened natively: run with --enable-native-access");
        }
        List<AutoCloseable> taken = takeEveryIdleScratch();
        List<ByteBuffer> held = DirectMemoryHog.holdAll();

        String closed = "ok";
        try {
            for (OpenFile f : opened) {
                f.close();
            }
        } catch (Throwable e) {
            closed = "close failed: " + e;
        }
        long left = descriptorsOf(file);
        System.out.println("result " + (left == 0 ? closed : closed + ", " + left + " descriptors of the file left"));

        taken.get(0).close(); // one idle again, with no more name memory than it was made with
        String opens;
        try (OpenFile f = OpenFile.open(longName)) {
            ByteBuffer into = ByteBuffer.allocate(content.length);
            f.channel().read(into, 0);
            opens = Arrays.equals(into.array(), content) ? "ok" : "wrong bytes";
        } catch (Throwable e) {
            opens = "open failed: " + e;
        }
        System.out.println("result " + opens);
        System.out.println("held " + held.size() + " buffers, " + taken.size() + " pieces of the calls' memory");
        System.out.println("done");
    }

    /** {@code Scratch.lend()} until it has to make one: every idle piece, taken. */
    private static List<AutoCloseable> takeEveryIdleScratch() throws Exception {
        Method scratch = Class.forName("io.zerocopy.Scratch").getDeclaredMethod("lend");
        scratch.setAccessible(true);
        List<AutoCloseable> taken = new ArrayList<>();
        for (int i = 0; i < 256; i++) { // more than the pool keeps
            taken.add((AutoCloseable) scratch.invoke(null));
        }
        return taken;
    }

    private static long descriptorsOf(Path file) throws Exception {
        Path real = file.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).equals(real);
                        } catch (Exception gone) {
                            return false;
                        }
                    })
                    .count();
        }
    }
}
