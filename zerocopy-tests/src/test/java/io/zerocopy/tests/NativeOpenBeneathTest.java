package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.OpenBeneathPaths;
import io.zerocopy.OpenDirectory;
import io.zerocopy.OpenFile;
import io.zerocopy.SymbolicLinkException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OpenDirectory} on its native walk (Java 22+ on Linux with native access; this module's
 * native-access run): each step an {@code openat} relative to the directory before, the file the library's own
 * channel. Every refusal by type, a FIFO without blocking, a racing writer, no descriptor left open;
 * each on both paths: one {@code openat2} where the kernel has it, and the walk alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"openat2", "walk"})
class NativeOpenBeneathTest {
    private static final String INSIDE = "inside\n";
    private static final String OUTSIDE = "outside: must never be read\n";

    /** {@code openat2}, or {@code walk}: the walk alone. */
    @Parameter
    String path;

    @TempDir
    Path dir;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(ThreadKind.PLATFORM);

    Path root;
    Path outside;

    @BeforeEach
    void layout() throws Exception {
        OpenBeneathPaths.inOneCall(path.equals("openat2"));
        root = Files.createDirectories(dir.resolve("root"));
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(Files.createDirectories(root.resolve("a/b")).resolve("c.txt"), INSIDE);
        Files.writeString(Files.createDirectories(root.resolve("d")).resolve("f.txt"), INSIDE);
        Files.writeString(outside.resolve("f.txt"), OUTSIDE);
        try (OpenDirectory held = OpenDirectory.open(root)) {
            // excluded from the run without native access; skips, rather than fails, if named there
            assumeTrue(held.toString().contains("opened natively"), "native access (this module's native run)");
            held.openBeneath(List.of("a", "b", "c.txt")).close();
        }
        if (path.equals("openat2")) {
            assumeTrue(OpenBeneathPaths.openat2InUse(), "a kernel with openat2 (Linux 5.6+)");
        }
    }

    @AfterEach
    void onePathForOtherTests() {
        OpenBeneathPaths.inOneCall(true);
    }

    /** A link at each step, leading outside or staying inside, is refused by type, named by its first step. */
    @Test
    void openBeneath_native_linkAtEachStep_symbolicLinkException() throws Exception {
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("in"), root.resolve("a"));
        Files.createSymbolicLink(root.resolve("a/b/last.txt"), root.resolve("d/f.txt"));
        Files.createSymbolicLink(root.resolve("a/mid"), root.resolve("a/b"));
        Files.createSymbolicLink(root.resolve("dangling"), dir.resolve("nowhere"));
        try (OpenDirectory held = OpenDirectory.open(root)) {
            for (List<String> segments : List.of(
                    List.of("out", "f.txt"),
                    List.of("in", "b", "c.txt"),
                    List.of("a", "mid", "c.txt"),
                    List.of("a", "b", "last.txt"),
                    List.of("out"),
                    List.of("dangling"),
                    List.of("dangling", "x"))) {
                Path first = root;
                for (String segment : segments) {
                    first = first.resolve(segment);
                    if (Files.isSymbolicLink(first)) {
                        break;
                    }
                }
                assertThatThrownBy(() -> held.openBeneath(segments).close())
                        .as("%s", segments)
                        .isExactlyInstanceOf(SymbolicLinkException.class)
                        .extracting(e -> ((FileSystemException) e).getFile())
                        .isEqualTo(first.toString());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "", "a/b", "/", "/etc", "x\0y"})
    void openBeneath_native_segmentNotOneName_illegalArgument(String segment) throws IOException {
        try (OpenDirectory held = OpenDirectory.open(root)) {
            assertThatThrownBy(() -> held.openBeneath(List.of("a", segment)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("segments: ");
        }
    }

    /** On {@code openat2}: a link last or in the middle refused, a missing file or step named as the walk names it. */
    @Test
    void openBeneath_openat2_refusesLinks_namesWhatIsMissing() throws Exception {
        assumeTrue(path.equals("openat2"), "the openat2 path");
        Files.createSymbolicLink(root.resolve("a/b/last.txt"), root.resolve("a/b/c.txt"));
        Files.createSymbolicLink(root.resolve("a/mid"), root.resolve("a/b"));
        Files.createSymbolicLink(root.resolve("top.txt"), root.resolve("d/f.txt"));
        try (OpenDirectory held = OpenDirectory.open(root)) {
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "b", "last.txt")))
                    .isExactlyInstanceOf(SymbolicLinkException.class)
                    .extracting(e -> ((FileSystemException) e).getFile())
                    .isEqualTo(root.resolve("a/b/last.txt").toString());
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "mid", "c.txt")))
                    .isExactlyInstanceOf(SymbolicLinkException.class)
                    .extracting(e -> ((FileSystemException) e).getFile())
                    .isEqualTo(root.resolve("a/mid").toString());
            assertThatThrownBy(() -> held.openBeneath(List.of("top.txt")))
                    .isExactlyInstanceOf(SymbolicLinkException.class)
                    .extracting(e -> ((FileSystemException) e).getFile())
                    .isEqualTo(root.resolve("top.txt").toString());
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "b", "nope.txt")))
                    .isExactlyInstanceOf(NoSuchFileException.class)
                    .hasMessage(root.resolve("a/b/nope.txt").toString());
            assertThatThrownBy(() -> held.openBeneath(List.of("nope.txt")))
                    .isExactlyInstanceOf(NoSuchFileException.class)
                    .hasMessage(root.resolve("nope.txt").toString());
            try (OpenFile file = held.openBeneath(List.of("d", "f.txt"))) {
                assertThat(read(file)).isEqualTo(INSIDE);
            }
        }
        assertThat(OpenBeneathPaths.openat2InUse())
                .as("openat2 still in use: no refusal made this JVM give it up")
                .isTrue();
    }

    @Test
    void openBeneath_native_refusesByType() throws Exception {
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("a/b/last.txt"), root.resolve("a/b/c.txt"));
        Path fifo = root.resolve("a/fifo");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo");
        try (OpenDirectory held = OpenDirectory.open(root)) {
            assertThat(held.toString())
                    .as("opened natively (this run enables native access)")
                    .contains("natively");
            try (OpenFile file = held.openBeneath(List.of("a", "b", "c.txt"))) {
                assertThat(file.openedNatively()).isTrue();
                assertThat(file.path()).isEqualTo(root.resolve("a/b/c.txt"));
                assertThat(read(file)).isEqualTo(INSIDE);
            }
            try (OpenFile self = held.openBeneath(List.of())) {
                assertThat(self.attributes().isDirectory()).isTrue();
            }
            for (List<String> link : List.of(List.of("out", "f.txt"), List.of("out"), List.of("a", "b", "last.txt"))) {
                assertThatThrownBy(() -> held.openBeneath(link).close())
                        .as("%s", link)
                        .isExactlyInstanceOf(SymbolicLinkException.class);
            }
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "fifo")))
                    .isExactlyInstanceOf(FileSystemException.class)
                    .extracting(e -> ((FileSystemException) e).getReason())
                    .isEqualTo("not a regular file or directory");
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "fifo", "x")))
                    .isExactlyInstanceOf(NotDirectoryException.class);
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "b", "c.txt", "x")))
                    .isExactlyInstanceOf(NotDirectoryException.class)
                    .hasMessage(root.resolve("a/b/c.txt").toString());
            assertThatThrownBy(() -> held.openBeneath(List.of("a", "nope", "c.txt")))
                    .isExactlyInstanceOf(NoSuchFileException.class)
                    .hasMessage(root.resolve("a/nope").toString());
        }
    }

    /** A writer swaps {@code root/d} for a link outside and back while opens run: never the outside bytes. */
    @Test
    void openBeneath_native_racingLinkSwaps_neverOutside() throws Exception {
        Path d = root.resolve("d");
        Path aside = dir.resolve("d-aside");
        Path link = Files.createSymbolicLink(root.resolve("d-link"), outside);
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
            int swaps = 0;
            try {
                while (!done.get() && swaps < 5_000_000) {
                    Files.move(d, aside, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, d, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(d, link, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(aside, d, StandardCopyOption.ATOMIC_MOVE);
                    swaps++;
                }
                return swaps;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        int inside = 0;
        int links = 0;
        try (OpenDirectory held = OpenDirectory.open(root)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            for (int i = 0; i < 200_000 && System.nanoTime() < deadline; i++) {
                try (OpenFile file = held.openBeneath(List.of("d", "f.txt"))) {
                    assertThat(read(file)).as("open %d", i).isEqualTo(INSIDE);
                    inside++;
                } catch (SymbolicLinkException e) {
                    links++;
                } catch (NoSuchFileException e) {
                    // set aside at that instant
                }
            }
        } finally {
            done.set(true);
        }
        writer.get(30, TimeUnit.SECONDS);
        assertThat(inside).as("opens of the inside file").isPositive();
        assertThat(links).as("opens that met the link").isPositive();
    }

    private static String read(OpenFile file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) file.attributes().size() + 1);
        while (file.channel().read(buffer) > 0) {
            // until the end
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }
}
