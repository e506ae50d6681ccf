package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OpenFile#openBeneath}: what it opens, every refusal (named by type, never by message),
 * no directory left open, and a writer racing it with links to a directory outside.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OpenBeneathTest {
    private static final String INSIDE = "inside\n";
    private static final String OUTSIDE = "outside: must never be read\n";

    @TempDir
    Path dir;

    Path root;
    Path outside;

    /** {@code root/a/b/c.txt}, {@code root/d/f.txt}, {@code root/plain.txt}; {@code outside/f.txt} and {@code outside/b/c.txt}. */
    @BeforeEach
    void layout() throws IOException {
        root = Files.createDirectories(dir.resolve("root"));
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(Files.createDirectories(root.resolve("a/b")).resolve("c.txt"), INSIDE);
        Files.writeString(Files.createDirectories(root.resolve("d")).resolve("f.txt"), INSIDE);
        Files.writeString(root.resolve("plain.txt"), INSIDE);
        Files.writeString(outside.resolve("f.txt"), OUTSIDE);
        Files.writeString(Files.createDirectories(outside.resolve("b")).resolve("c.txt"), OUTSIDE);
    }

    @Test
    void openBeneath_threeSegments_theFileAndItsAttributes() throws IOException {
        try (OpenFile file = OpenFile.openBeneath(root, List.of("a", "b", "c.txt"))) {
            assertThat(read(file)).isEqualTo(INSIDE);
            assertThat(file.path()).isEqualTo(root.resolve("a/b/c.txt"));
            assertThat(file.attributes().isRegularFile()).isTrue();
            assertThat(file.attributes().size()).isEqualTo(INSIDE.length());
            assertThat(file.attributes().fileKey())
                    .isEqualTo(Files.readAttributes(root.resolve("a/b/c.txt"), "basic:fileKey")
                            .get("fileKey"));
        }
    }

    @Test
    void openBeneath_directoryLast_orNoSegments_opensTheDirectory() throws IOException {
        try (OpenFile file = OpenFile.openBeneath(root, List.of("a", "b"))) {
            assertThat(file.attributes().isDirectory()).isTrue();
        }
        try (OpenFile file = OpenFile.openBeneath(root, List.of())) {
            assertThat(file.attributes().isDirectory()).isTrue();
            assertThat(file.path()).isEqualTo(root);
        }
    }

    /** A held directory: opens beneath it, itself with no segments, still itself when renamed; its files outlive it. */
    @Test
    void openDirectory_held_opensBeneath_filesOutliveIt() throws IOException {
        int before = openBeneathDir();
        OpenDirectory held = OpenDirectory.open(root);
        OpenFile file;
        try (held) {
            assertThat(held.path()).isEqualTo(root);
            assertThat(held.isRaceFree()).isEqualTo(secureStreams(root));
            file = held.openBeneath(List.of("a", "b", "c.txt"));
            try (OpenFile self = held.openBeneath(List.of())) {
                assertThat(self.attributes().isDirectory()).isTrue();
                assertThat(self.path()).isEqualTo(root);
            }
            if (held.isRaceFree()) {
                Path renamed = Files.move(root, dir.resolve("renamed"));
                try (OpenFile moved = held.openBeneath(List.of("d", "f.txt"))) {
                    assertThat(read(moved))
                            .as("the directory held, wherever it is now")
                            .isEqualTo(INSIDE);
                } finally {
                    Files.move(renamed, root);
                }
            }
        }
        try (file) {
            assertThat(read(file)).isEqualTo(INSIDE);
        }
        assertThat(openBeneathDir())
                .as("descriptors under the temporary directory")
                .isEqualTo(before);
        assertThatThrownBy(() -> held.openBeneath(List.of("plain.txt")))
                .isInstanceOf(java.nio.channels.ClosedChannelException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "", "a/b", "/", "/etc", "x\0y"})
    void openBeneath_segmentNotOneName_illegalArgument(String segment) {
        assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("a", segment)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("segments: ")
                .hasMessageContaining("(expected: ");
    }

    @Test
    void openBeneath_nulls() {
        assertThatThrownBy(() -> OpenFile.openBeneath(null, List.of("a"))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> OpenFile.openBeneath(root, null)).isInstanceOf(NullPointerException.class);
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> OpenFile.openBeneath(root, withNull)).isInstanceOf(NullPointerException.class);
    }

    /** A link at each step, whether it leads outside or stays inside, is refused by type. */
    @Test
    void openBeneath_linkAtEachStep_symbolicLinkException() throws IOException {
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("in"), root.resolve("a"));
        Files.createSymbolicLink(root.resolve("a/b/last.txt"), root.resolve("plain.txt"));
        Files.createSymbolicLink(root.resolve("a/mid"), root.resolve("a/b"));
        Files.createSymbolicLink(root.resolve("dangling"), dir.resolve("nowhere"));
        List<List<String>> links = List.of(
                List.of("out", "f.txt"),
                List.of("out", "b", "c.txt"),
                List.of("in", "b", "c.txt"),
                List.of("a", "mid", "c.txt"),
                List.of("a", "b", "last.txt"),
                List.of("out"),
                List.of("dangling"),
                List.of("dangling", "x"));
        int before = openBeneathDir();
        for (List<String> segments : links) {
            assertThatThrownBy(() -> OpenFile.openBeneath(root, segments).close())
                    .as("%s", segments)
                    .isExactlyInstanceOf(SymbolicLinkException.class)
                    .hasMessageContaining(root.resolve(segments.get(0)).toString());
        }
        assertThat(openBeneathDir())
                .as("descriptors under the temporary directory")
                .isEqualTo(before);
    }

    @Test
    void openBeneath_missing_noSuchFile() {
        assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("a", "b", "nope.txt")))
                .isExactlyInstanceOf(NoSuchFileException.class)
                .hasMessage(root.resolve("a/b/nope.txt").toString());
        assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("nope", "c.txt")))
                .isExactlyInstanceOf(NoSuchFileException.class)
                .hasMessage(root.resolve("nope").toString());
    }

    @Test
    void openBeneath_fileOnTheWay_notDirectory() {
        assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("plain.txt", "x")))
                .isExactlyInstanceOf(NotDirectoryException.class)
                .hasMessage(root.resolve("plain.txt").toString());
    }

    /** A FIFO, last or on the way, is refused without blocking, as {@link OpenFile#open} refuses it. */
    @Test
    void openBeneath_fifo_refusedWithoutBlocking() throws Exception {
        Path fifo = root.resolve("a/fifo");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "needs mkfifo: " + e);
            return;
        }
        assertThat(mkfifo.waitFor()).isZero();
        assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("a", "fifo")))
                .isExactlyInstanceOf(FileSystemException.class)
                .extracting(e -> ((FileSystemException) e).getReason())
                .isEqualTo(OpenFailures.NOT_A_FILE);
        assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("a", "fifo", "x")))
                .isExactlyInstanceOf(NotDirectoryException.class);
    }

    @Test
    void openBeneath_unsearchableDirectory_accessDenied() throws IOException {
        assumeTrue(!Integer.valueOf(0).equals(Files.getAttribute(root, "unix:uid")), "root reads everything");
        Path locked = root.resolve("a");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try {
            assertThatThrownBy(() -> OpenFile.openBeneath(root, List.of("a", "b", "c.txt")))
                    .isInstanceOf(AccessDeniedException.class);
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /** Every directory opened on the way is closed, whether the open succeeds or fails at any step. */
    @Test
    void openBeneath_leavesNoDirectoryOpen() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
        Files.createSymbolicLink(root.resolve("a/b/link"), outside);
        int before = openBeneathDir();
        for (int i = 0; i < 100; i++) {
            OpenFile.openBeneath(root, List.of("a", "b", "c.txt")).close();
            for (List<String> failing : List.of(
                    List.of("a", "b", "link", "f.txt"),
                    List.of("a", "b", "link"),
                    List.of("a", "b", "nope"),
                    List.of("a", "nope", "c.txt"),
                    List.of("a", "b", "c.txt", "x"))) {
                assertThatThrownBy(() -> OpenFile.openBeneath(root, failing).close())
                        .isInstanceOf(IOException.class);
            }
        }
        assertThat(openBeneathDir())
                .as("descriptors under the temporary directory")
                .isEqualTo(before);
    }

    /**
     * A writer swaps {@code root/d} for a link to {@code outside} and back, over and over, while
     * opens of {@code d/f.txt} run: none reads the outside bytes, and some read the inside ones.
     * Against a look-then-open by path the outside file is read within a few thousand opens.
     */
    @Test
    void openBeneath_racingLinkSwaps_neverOutside() throws Exception {
        assumeTrue(secureStreams(root), "the race-free walk");
        Path d = root.resolve("d");
        Path aside = root.resolve("d.aside");
        Path link = root.resolve("d.link");
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> swap(d, aside, link, outside, done));
        int inside = 0;
        int refused = 0;
        try (OpenDirectory held = OpenDirectory.open(root)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            for (int i = 0; i < 200_000 && System.nanoTime() < deadline; i++) {
                List<String> segments = List.of("d", "f.txt");
                try (OpenFile file = i % 2 == 0 ? OpenFile.openBeneath(root, segments) : held.openBeneath(segments)) {
                    String text = read(file);
                    assertThat(text).as("open %d", i).isNotEqualTo(OUTSIDE).isEqualTo(INSIDE);
                    inside++;
                } catch (FileSystemException e) {
                    refused++; // a link, no entry, or the open's ELOOP when the link was gone again
                }
            }
        } finally {
            done.set(true);
        }
        int swaps = writer.get(30, TimeUnit.SECONDS);
        assertThat(inside)
                .as("opens that read the inside file (%d refused, %d swaps)", refused, swaps)
                .isPositive();
        assertThat(refused)
                .as("opens that met the link or no entry (%d swaps)", swaps)
                .isPositive();
    }

    /**
     * A file replaced by rename over and over while it is opened every way there is, by path and
     * beneath a directory: the attributes each open gives describe the file it opened (its size is
     * the channel's), never the one the name held a moment before or after. A look by name before
     * the open, taken alone, pairs them with the wrong file within a few thousand opens.
     */
    @Test
    void open_racingRenames_attributesAreTheOpenedFiles() throws Exception {
        byte[][] versions = {version(7_001, 'a'), version(9_002, 'b'), version(5_003, 'c')};
        Path file = root.resolve("d/changing.bin");
        Files.write(file, versions[0]);
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> replace(file, versions, done));
        int opens = 0;
        try (OpenDirectory held = OpenDirectory.open(root)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            List<String> segments = List.of("d", "changing.bin");
            for (; opens < 100_000 && System.nanoTime() < deadline; opens++) {
                try (OpenFile opened = switch (opens % 4) {
                    case 0 -> OpenFile.open(file);
                    case 1 -> OpenFile.open(file, LinkOption.NOFOLLOW_LINKS);
                    case 2 -> OpenFile.openBeneath(root, segments);
                    default -> held.openBeneath(segments);
                }) {
                    long size = opened.attributes().size();
                    assertThat(opened.channel().size())
                            .as("open %d: the channel's size", opens)
                            .isEqualTo(size);
                    ByteBuffer body = ByteBuffer.allocate((int) size);
                    while (body.hasRemaining() && opened.channel().read(body, body.position()) > 0) {
                        // to the end
                    }
                    assertThat(List.of(versions))
                            .as("open %d: one version, whole", opens)
                            .anyMatch(v -> java.util.Arrays.equals(v, body.array()));
                }
            }
        } finally {
            done.set(true);
        }
        int replaced = writer.get(30, TimeUnit.SECONDS);
        assertThat(replaced).as("renames during %d opens", opens).isPositive();
    }

    private static byte[] version(int size, char fill) {
        byte[] bytes = new byte[size];
        java.util.Arrays.fill(bytes, (byte) fill);
        return bytes;
    }

    /** Replaces {@code file} by rename with the next version until {@code done}; returns the renames made. */
    private static int replace(Path file, byte[][] versions, AtomicBoolean done) {
        Path next = file.resolveSibling("next.bin");
        int renames = 0;
        try {
            while (!done.get() && renames < 5_000_000) {
                Files.write(next, versions[++renames % versions.length]);
                Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            return renames;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Swaps {@code d} for a link to {@code outside} and back until {@code done}; returns the swaps made. */
    static int swap(Path d, Path aside, Path link, Path outside, AtomicBoolean done) {
        int swaps = 0;
        try {
            Files.createSymbolicLink(link, outside);
            while (!done.get() && swaps < 5_000_000) {
                Files.move(d, aside, StandardCopyOption.ATOMIC_MOVE);
                Files.move(link, d, StandardCopyOption.ATOMIC_MOVE);
                Files.move(d, link, StandardCopyOption.ATOMIC_MOVE);
                Files.move(aside, d, StandardCopyOption.ATOMIC_MOVE);
                swaps++;
            }
            return swaps;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A writer swapping a FIFO in at the name being opened can make the JDK's open wait for a writer
     * (the window the class description names). {@code close()} then returns at once, and the
     * directory's descriptor closes when that open ends. A native open never waits: not tried there.
     */
    @Test
    void close_whileAnOpenWaitsOnAFifoSwappedIn_returnsAtOnce() throws Exception {
        Path side = Files.createDirectories(dir.resolve("side"));
        Path fifo = side.resolve("fifo");
        Path regular = side.resolve("regular");
        Path name = root.resolve("ff");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "needs mkfifo");
        Files.writeString(name, INSIDE);
        int before = openBeneathDir();
        OpenDirectory directory = OpenDirectory.open(root);
        assumeTrue(!directory.toString().contains("opened natively"), "a native open never waits on a FIFO");
        AtomicBoolean swapping = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            boolean fifoIn = false;
            while (swapping.get()) {
                try {
                    Files.move(name, fifoIn ? fifo : regular); // what is at the name goes to the side
                    Files.move(fifoIn ? regular : fifo, name); // and the other comes in
                    fifoIn = !fifoIn;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        AtomicLong opens = new AtomicLong();
        ExecutorService threads = Executors.newCachedThreadPool();
        CompletableFuture<Void> opener = CompletableFuture.runAsync(
                () -> {
                    while (directory.isOpen()) {
                        try (OpenFile file = directory.openBeneath(List.of("ff"))) {
                            assertThat(file.attributes().isRegularFile()).isTrue();
                        } catch (IOException refusedOrMissingMeanwhile) {
                            // a FIFO refused by the look, or the name between two renames
                        }
                        opens.incrementAndGet();
                    }
                },
                threads);
        writer.start();
        boolean waiting = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!waiting && System.nanoTime() < deadline) {
            long seen = opens.get();
            long quiet = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (opens.get() == seen && System.nanoTime() < quiet) {
                Thread.onSpinWait();
            }
            waiting = opens.get() == seen; // no open ended for a second while the writer ran: one waits
        }
        swapping.set(false);
        writer.join();
        assumeTrue(waiting, "no open met the FIFO within 30 s");

        CompletableFuture<Void> closing = CompletableFuture.runAsync(
                () -> {
                    try {
                        directory.close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                threads);
        boolean closedAtOnce = closing.handle((v, e) -> true)
                .completeOnTimeout(false, 5, TimeUnit.SECONDS)
                .join();
        Path fifoNow = Files.readAttributes(name, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                        .isOther()
                ? name
                : fifo;
        try (FileChannel release = FileChannel.open(fifoNow, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            // a writer came: the waiting open returns
        }
        opener.get(10, TimeUnit.SECONDS);
        closing.get(10, TimeUnit.SECONDS);
        threads.shutdown();
        assertThat(closedAtOnce)
                .as("close() returned while an open beneath waited")
                .isTrue();
        assertThat(openBeneathDir())
                .as("the directory closed with the open that outlived close()")
                .isEqualTo(before);
    }

    private static boolean secureStreams(Path directory) throws IOException {
        try (java.nio.file.DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            return stream instanceof SecureDirectoryStream;
        }
    }

    private static String read(OpenFile file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) file.attributes().size() + 1);
        while (file.channel().read(buffer) > 0) {
            // until the end
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    /** Descriptors of this JVM open on anything under the temporary directory. */
    private int openBeneathDir() throws IOException {
        if (!Files.isDirectory(Path.of("/proc/self/fd"))) {
            return 0;
        }
        int n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    n += Files.readSymbolicLink(fd).startsWith(dir) ? 1 : 0;
                } catch (IOException closedMeanwhile) {
                    // not ours
                }
            }
        }
        return n;
    }
}
