package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** File to file copies, whole and in slices, for automatic selection and every strategy forced. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileToFileTest {
    private static final long SEED = Seeds.announce(FileToFileTest.class);

    /** Slices drawn at random per strategy, on top of the edge slices. */
    private static final int RANDOM_SLICES = 6;

    @TempDir
    static Path sources;

    @TempDir
    Path dir;

    private static final Map<Long, byte[]> CONTENT = new HashMap<>();
    private static final Map<Long, Path> FILES = new HashMap<>();

    enum Mode {
        // transferFrom declines file sources: copy_transferFromForced_declinedBeforeAByteMoves
        AUTO(null),
        TRANSFER_TO("transferTo"),
        MMAP("mmap"),
        BUFFERED("buffered");

        final String forced;

        Mode(String forced) {
            this.forced = forced;
        }

        /** The strategy that must run: Linux copies between two files in the kernel. */
        String expected() {
            return forced != null ? forced : "transferTo";
        }
    }

    @BeforeAll
    static void createFiles() throws IOException {
        for (long size : TestFiles.SIZES) {
            byte[] content = TestFiles.randomBytes((int) size, Seeds.derive(SEED, size));
            CONTENT.put(size, content);
            FILES.put(size, TestFiles.write(sources.resolve("source-" + size), content));
        }
    }

    static Stream<Arguments> modesAndSizes() {
        List<Arguments> cases = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (long size : TestFiles.SIZES) {
                cases.add(Arguments.of(mode, size, SEED));
            }
        }
        return cases.stream();
    }

    static Stream<Arguments> modes() {
        return Stream.of(Mode.values()).map(mode -> Arguments.of(mode, SEED));
    }

    @ParameterizedTest(name = "{0} {1} bytes (seed {2})")
    @MethodSource("modesAndSizes")
    void copy_pathToPath(Mode mode, long size, long seed) throws Exception {
        Path target = dir.resolve("copy");
        RecordingListener listener = new RecordingListener();

        long copied = Transfers.copy(FILES.get(size), target, options(mode, listener));

        assertThat(copied).isEqualTo(size);
        assertSameBytes(Files.readAllBytes(target), CONTENT.get(size));
        assertThat(listener.strategy()).as("strategy that ran").isEqualTo(mode.expected());
        assertThat(listener.result().bytesTransferred()).isEqualTo(size);
        assertThat(listener.expectedBytes()).isEqualTo(size);
    }

    @ParameterizedTest(name = "{0} {1} bytes (seed {2})")
    @MethodSource("modesAndSizes")
    void copy_pathToPositionedFileChannel(Mode mode, long size, long seed) throws Exception {
        Random random = new Random(Seeds.derive(seed, size ^ mode.ordinal()));
        byte[] existing = TestFiles.randomBytes(1 + random.nextInt(20_000), random.nextLong());
        // Inside the existing bytes, at their end, or past it (a write there leaves a hole of zeros).
        int start = 1 + random.nextInt(existing.length + 5000);
        Path target = TestFiles.write(dir.resolve("target"), existing);
        RecordingListener listener = new RecordingListener();

        long copied;
        try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
            channel.position(start);
            copied = Transfers.copy(FILES.get(size), (WritableByteChannel) channel, options(mode, listener));
            assertThat(channel.position()).as("target position").isEqualTo(start + size);
        }

        assertThat(copied).isEqualTo(size);
        byte[] content = CONTENT.get(size);
        int expectedLength = content.length == 0 ? existing.length : Math.max(existing.length, start + content.length);
        byte[] expected = Arrays.copyOf(existing, expectedLength);
        if (content.length > 0) {
            System.arraycopy(content, 0, expected, start, content.length);
        }
        assertSameBytes(Files.readAllBytes(target), expected);
        assertThat(listener.strategy()).as("strategy that ran").isEqualTo(mode.expected());
    }

    @ParameterizedTest(name = "{0} (seed {1})")
    @MethodSource("modes")
    void copy_fileChannelSlices(Mode mode, long seed) throws Exception {
        long size = (1 << 20) + 3;
        byte[] content = CONTENT.get(size);
        Random random = new Random(Seeds.derive(seed, mode.ordinal()));
        List<long[]> slices = new ArrayList<>(List.of(
                new long[] {0, 0}, new long[] {size, 0}, new long[] {size - 1, 1}, new long[] {0, size}, new long[] {
                    1, size - 1
                }));
        for (int i = 0; i < RANDOM_SLICES; i++) {
            long position = random.nextInt((int) size + 1);
            slices.add(new long[] {position, random.nextInt((int) (size - position) + 1)});
        }
        try (FileChannel source = FileChannel.open(FILES.get(size), StandardOpenOption.READ)) {
            for (long[] slice : slices) {
                long position = slice[0];
                long count = slice[1];
                String what = "slice at " + position + " of " + count + " bytes";
                long sourcePosition = random.nextInt((int) size + 1);
                source.position(sourcePosition);
                int targetStart = random.nextInt(100);
                Path target = dir.resolve("slice-" + position + "-" + count);
                RecordingListener listener = new RecordingListener();
                long copied;
                try (FileChannel out =
                        FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    out.position(targetStart);
                    copied = Transfers.copy(source, position, count, out, options(mode, listener));
                    assertThat(out.position()).as(what + ": target position").isEqualTo(targetStart + count);
                }
                assertThat(copied).as(what + ": returned count").isEqualTo(count);
                assertThat(source.position())
                        .as(what + ": source position unchanged")
                        .isEqualTo(sourcePosition);
                byte[] actual = Files.readAllBytes(target);
                byte[] expectedSlice = Arrays.copyOfRange(content, (int) position, (int) (position + count));
                if (count > 0) {
                    assertThat(actual.length).as(what + ": target size").isEqualTo(targetStart + count);
                    assertSameBytes(Arrays.copyOfRange(actual, targetStart, actual.length), expectedSlice);
                } else {
                    assertThat(actual.length).as(what + ": nothing written").isLessThanOrEqualTo(targetStart);
                }
                assertThat(listener.strategy()).as(what + ": strategy").isEqualTo(mode.expected());
                Files.delete(target);
            }
        }
    }

    private static TransferOptions options(Mode mode, RecordingListener listener) {
        return TransferOptions.builder()
                .strategy(mode.forced)
                .listener(listener)
                .build();
    }

    private static void assertSameBytes(byte[] actual, byte[] expected) {
        assertThat(actual.length).as("length").isEqualTo(expected.length);
        assertThat(Arrays.mismatch(actual, expected)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void copy_transferFromForced_declinedBeforeAByteMoves() throws IOException {
        Path source = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(4096, 1));
        Path target = dir.resolve("target");
        TransferOptions options =
                TransferOptions.builder().strategy("transferFrom").build();

        assertThatThrownBy(() -> Transfers.copy(source, target, options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strategy: transferFrom");
        assertThat(Files.exists(target)).as("no partial target is left").isFalse();
    }

    /**
     * An {@code Error} mid-copy (here a listener's; a mapping's {@code InternalError} or an
     * {@code OutOfMemoryError} alike) leaves no partial target, as an exception does not.
     */
    @Test
    void copy_errorMidway_leavesNoPartialTarget() throws IOException {
        Path source = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(3 << 20, 2));
        Path target = dir.resolve("target");
        AssertionError thrown = new AssertionError("the listener's own error");
        TransferOptions options = TransferOptions.builder()
                .listener(new TransferListener() {
                    @Override
                    public void onProgress(long bytesTransferred) {
                        throw thrown;
                    }
                })
                .build();

        assertThatThrownBy(() -> Transfers.copy(source, target, options)).isSameAs(thrown);
        assertThat(Files.exists(target)).as("no partial target is left").isFalse();
    }

    /** As documented: the nine permission bits are copied, the set-user-ID, set-group-ID and sticky bits never. */
    @Test
    void copy_copyAttributes_copiesThePermissionBitsOnly() throws IOException {
        Path source = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(100, 3));
        try {
            Files.setAttribute(source, "unix:mode", 07755);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            abort("no unix:mode attribute here: " + e);
        }
        Path target = dir.resolve("target");

        Transfers.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);

        assertThat((int) Files.getAttribute(source, "unix:mode") & 07777).isEqualTo(07755);
        assertThat((int) Files.getAttribute(target, "unix:mode") & 07777).isEqualTo(0755);
    }

    /**
     * {@code COPY_ATTRIBUTES} gives the new file the source's owner and group, as {@code Files.copy}
     * does where the process may set them; only root may give a file away, so only root can tell.
     */
    @Test
    void copy_copyAttributes_ownerAndGroup_asFilesCopy() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root may give a file away");
        Path source = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(100, 4));
        Files.setAttribute(source, "unix:uid", 1234);
        Files.setAttribute(source, "unix:gid", 2345);
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rwxr-x---"));

        Files.copy(source, dir.resolve("jdk"), StandardCopyOption.COPY_ATTRIBUTES);
        Transfers.copy(source, dir.resolve("ours"), StandardCopyOption.COPY_ATTRIBUTES);
        Transfers.copy(source, dir.resolve("plain"));

        for (String name : List.of("jdk", "ours")) {
            Path copy = dir.resolve(name);
            assertThat(Files.getAttribute(copy, "unix:uid")).as(name).isEqualTo(1234);
            assertThat(Files.getAttribute(copy, "unix:gid")).as(name).isEqualTo(2345);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)))
                    .as(name)
                    .isEqualTo("rwxr-x---");
        }
        assertThat(Files.getAttribute(dir.resolve("plain"), "unix:uid")).isEqualTo(0);
        assertThat(Files.readAllBytes(dir.resolve("ours"))).isEqualTo(Files.readAllBytes(source));
    }
}
