package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the public {@link Transfers} API does with bad arguments, closed channels, channels opened
 * in the wrong mode and files that are not there, as documented on {@link TransferOptions}: it fails before
 * a byte moves, with the JDK's own exception types, and names the parameter.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ArgumentsTest {

    private static final int SIZE = 100;

    @TempDir
    Path dir;

    private Path source;
    private FileChannel sourceChannel;
    private final RecordingTarget recording = new RecordingTarget();
    private final EventLog events = new EventLog();

    @BeforeEach
    void createSource() throws IOException {
        byte[] content = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            content[i] = (byte) (i + 1);
        }
        source = Files.write(dir.resolve("source"), content);
        sourceChannel = FileChannel.open(source, StandardOpenOption.READ);
    }

    @AfterEach
    void closeSource() throws IOException {
        sourceChannel.close();
    }

    /** A copier whose listener must stay silent for a transfer rejected up front. */
    private TransferOptions observed() {
        return TransferOptions.builder().listener(events).build();
    }

    private void assertNothingMoved() {
        assertThat(recording.writes).as("writes into the target").isZero();
        assertThat(events.calls).as("listener calls").isEmpty();
    }

    // ---------------------------------------------------------------- nulls

    @TestFactory
    Stream<DynamicTest> copy_nullArgument() throws IOException {
        Path target = dir.resolve("target");
        OutputStream out = new ByteArrayOutputStream();
        InputStream in = new ByteArrayInputStream(new byte[1]);
        List<DynamicTest> tests = new ArrayList<>();
        addNull(
                tests,
                "copy(Path, WritableByteChannel) source",
                "source",
                () -> Transfers.copy((Path) null, recording));
        addNull(
                tests,
                "copy(Path, WritableByteChannel) target",
                "target",
                () -> Transfers.copy(source, (WritableByteChannel) null));
        addNull(tests, "copy(Path, OutputStream) source", "source", () -> Transfers.copy((Path) null, out));
        addNull(tests, "copy(Path, OutputStream) target", "target", () -> Transfers.copy(source, (OutputStream) null));
        addNull(tests, "copy(Path, Path) source", "source", () -> Transfers.copy((Path) null, target));
        addNull(tests, "copy(Path, Path) target", "target", () -> Transfers.copy(source, (Path) null));
        addNull(
                tests,
                "copy(Path, Path) copyOptions",
                "copyOptions",
                () -> Transfers.copy(source, target, (CopyOption[]) null));
        addNull(
                tests,
                "copy(Path, Path) copyOptions[1]",
                "copyOptions[1]",
                () -> Transfers.copy(source, target, StandardCopyOption.REPLACE_EXISTING, null));
        addNull(
                tests,
                "copy(FileChannel, long, long, WritableByteChannel) source",
                "source",
                () -> Transfers.copy(null, 0, 1, recording));
        addNull(
                tests,
                "copy(FileChannel, long, long, WritableByteChannel) target",
                "target",
                () -> Transfers.copy(sourceChannel, 0, 1, null));
        addNull(
                tests,
                "copy(ReadableByteChannel, WritableByteChannel) source",
                "source",
                () -> Transfers.copy((ReadableByteChannel) null, recording));
        addNull(
                tests,
                "copy(ReadableByteChannel, WritableByteChannel) target",
                "target",
                () -> Transfers.copy((ReadableByteChannel) sourceChannel, null));
        addNull(
                tests,
                "copy(InputStream, OutputStream) source",
                "source",
                () -> Transfers.copy((InputStream) null, out));
        addNull(
                tests,
                "copy(InputStream, OutputStream) target",
                "target",
                () -> Transfers.copy(in, (OutputStream) null));
        addNull(
                tests,
                "copy(Path, WritableByteChannel, TransferOptions) options",
                "options",
                () -> Transfers.copy(source, recording, (TransferOptions) null));
        return tests.stream();
    }

    private void addNull(List<DynamicTest> tests, String name, String parameter, ThrowingCallable call) {
        tests.add(DynamicTest.dynamicTest(name, () -> {
            assertThatThrownBy(call).isInstanceOf(NullPointerException.class).hasMessage(parameter);
            assertThat(Files.exists(dir.resolve("target")))
                    .as("target file created")
                    .isFalse();
            assertThat(recording.writes).isZero();
        }));
    }

    // ---------------------------------------------------------------- slices

    @Test
    void copySlice_negativePosition() throws IOException {
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, -1, 10, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("position: -1 (expected: >= 0)");
        assertNothingMoved();
        assertThat(sourceChannel.position()).isZero();
    }

    @Test
    void copySlice_negativeCount() {
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, 0, -1, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count: -1 (expected: >= 0)");
        assertNothingMoved();
    }

    @Test
    void copySlice_pastEndOfFile() {
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, 0, SIZE + 1, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("count: " + (SIZE + 1) + " (expected: <= " + SIZE);
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, 60, 41, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("count: 41 (expected: <= 40");
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, 1, Long.MAX_VALUE, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("count: " + Long.MAX_VALUE + " ");
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, SIZE, 1, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("count: 1 ");
        assertNothingMoved();
    }

    @Test
    void copySlice_positionPastEndOfFile() {
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, SIZE + 1, 0, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("position: " + (SIZE + 1) + " (expected: <= ")
                .hasMessageContaining(Integer.toString(SIZE));
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, Long.MAX_VALUE, 1, recording, observed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("position: " + Long.MAX_VALUE + " ");
        assertNothingMoved();
    }

    @Test
    void copySlice_emptySlicesAtTheEdges() throws IOException {
        assertThat(Transfers.copy(sourceChannel, SIZE, 0, recording)).isZero();
        assertThat(Transfers.copy(sourceChannel, 0, 0, recording)).isZero();
        assertThat(recording.bytes.size()).isZero();
        assertThat(Transfers.copy(sourceChannel, SIZE - 1, 1, recording)).isEqualTo(1);
        assertThat(recording.bytes.toByteArray()).containsExactly((byte) SIZE);
    }

    // ---------------------------------------------------------------- closed channels

    @Test
    void copy_closedSourceChannel() throws IOException {
        sourceChannel.close();

        assertThatThrownBy(() -> Transfers.copy(sourceChannel, 0, 10, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> Transfers.copy((ReadableByteChannel) sourceChannel, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        RecordingSource closed = new RecordingSource();
        closed.open = false;
        assertThatThrownBy(() -> Transfers.copy(closed, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        assertThat(closed.reads).isZero();
        assertNothingMoved();
    }

    @Test
    void copy_closedTargetChannel() throws IOException {
        recording.open = false;

        assertThatThrownBy(() -> Transfers.copy(source, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> Transfers.copy(sourceChannel, 0, 10, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> Transfers.copy((ReadableByteChannel) sourceChannel, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        RecordingSource plain = new RecordingSource();
        assertThatThrownBy(() -> Transfers.copy(plain, recording, observed()))
                .isInstanceOf(ClosedChannelException.class);
        assertThat(plain.reads).isZero();
        assertNothingMoved();
        assertThat(sourceChannel.position()).isZero();
    }

    @Test
    void copy_closedFileTarget() throws IOException {
        FileChannel target =
                FileChannel.open(dir.resolve("target"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        target.close();

        assertThatThrownBy(() -> Transfers.copy(source, target, observed())).isInstanceOf(ClosedChannelException.class);
        assertThat(Files.size(dir.resolve("target"))).isZero();
        assertThat(events.calls).isEmpty();
    }

    @Test
    void copyChannel_emptyFileChannelSource() throws IOException {
        // a FileChannel whose size reads as 0 (an empty file, a procfs file) is read as a stream
        try (FileChannel empty = FileChannel.open(Files.createFile(dir.resolve("empty")), StandardOpenOption.READ)) {
            assertThat(Transfers.copy(empty, recording, observed())).isZero();
            assertThat(empty.position()).isZero();
        }
        assertThat(recording.bytes.size()).isZero();
    }

    // ---------------------------------------------------------------- channels in the wrong mode

    @ParameterizedTest(name = "forced {0}")
    @ValueSource(strings = {"auto", "transferTo", "mmap", "buffered"})
    void copy_writeOnlySourceChannel(String strategy) throws IOException {
        TransferOptions copier = copier(strategy);
        try (FileChannel writeOnly = FileChannel.open(source, StandardOpenOption.WRITE)) {
            assertThatThrownBy(() -> Transfers.copy(writeOnly, 0, SIZE, recording, copier))
                    .isInstanceOf(NonReadableChannelException.class);
            assertThatThrownBy(() -> Transfers.copy((ReadableByteChannel) writeOnly, recording, copier))
                    .isInstanceOf(NonReadableChannelException.class);
        }
        assertNothingMoved();
    }

    @ParameterizedTest(name = "forced {0}")
    @ValueSource(strings = {"auto", "transferTo", "transferFrom", "mmap", "buffered"})
    void copy_writeOnlySourceIntoFile(String strategy) throws IOException {
        TransferOptions copier = copier(strategy);
        Path targetPath = Files.createFile(dir.resolve("target"));
        try (FileChannel writeOnly = FileChannel.open(source, StandardOpenOption.WRITE);
                FileChannel target = FileChannel.open(targetPath, StandardOpenOption.WRITE)) {
            assertThatThrownBy(() -> Transfers.copy(writeOnly, 0, SIZE, target, copier))
                    .isInstanceOf(NonReadableChannelException.class);
            assertThat(target.position()).isZero();
        }
        assertThat(Files.size(targetPath)).isZero();
        assertThat(events.calls)
                .as("listener calls for a transfer that could not start")
                .isEmpty();
    }

    @Test
    void copy_writeOnlyLargeSourceIsNotMapped() throws IOException {
        Path large = dir.resolve("large");
        try (RandomAccessFile file = new RandomAccessFile(large.toFile(), "rw")) {
            file.setLength(2 * Selection.MMAP_MIN_BYTES); // sparse
        }
        try (FileChannel writeOnly = FileChannel.open(large, StandardOpenOption.WRITE)) {
            assertThatThrownBy(() -> Transfers.copy(writeOnly, 0, writeOnly.size(), recording, observed()))
                    .isInstanceOf(NonReadableChannelException.class);
        }
        assertThat(recording.writes).isZero();
    }

    @ParameterizedTest(name = "forced {0}")
    @ValueSource(strings = {"auto", "transferTo", "transferFrom", "mmap", "buffered"})
    void copy_readOnlyTargetChannel(String strategy) throws IOException {
        TransferOptions copier = copier(strategy);
        Path targetPath = Files.createFile(dir.resolve("target"));
        try (FileChannel readOnly = FileChannel.open(targetPath, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> Transfers.copy(source, readOnly, copier))
                    .isInstanceOf(NonWritableChannelException.class);
            assertThatThrownBy(() -> Transfers.copy(sourceChannel, 0, SIZE, readOnly, copier))
                    .isInstanceOf(NonWritableChannelException.class);
        }
        assertThat(Files.size(targetPath)).isZero();
        assertThat(events.calls)
                .as("listener calls for a transfer that could not start")
                .isEmpty();
    }

    private TransferOptions copier(String strategy) {
        TransferOptions.Builder b = TransferOptions.builder().listener(events);
        return (strategy.equals("auto") ? b : b.strategy(strategy)).build();
    }

    // ---------------------------------------------------------------- paths

    @Test
    void copy_missingSourceFile() throws IOException {
        Path missing = dir.resolve("missing");
        Path target = dir.resolve("target");

        assertThatThrownBy(() -> Transfers.copy(missing, recording, observed()))
                .isExactlyInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Transfers.copy(missing, new ByteArrayOutputStream(), observed()))
                .isExactlyInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Transfers.copy(missing, target, observed()))
                .isExactlyInstanceOf(NoSuchFileException.class);
        assertThat(target).doesNotExist();
        assertNothingMoved();
    }

    @Test
    void copy_missingTargetDirectory() {
        assertThatThrownBy(
                        () -> Transfers.copy(source, dir.resolve("no-such-dir").resolve("target"), observed()))
                .isExactlyInstanceOf(NoSuchFileException.class);
        assertThat(events.calls).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rw-------", "rwxr-x---", "rwxr-xr-x", "r--r--r--"})
    void copyPath_targetGetsTheModeFilesCopyWouldGive(String mode) throws IOException {
        assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "POSIX file system");
        Path secret = Files.write(dir.resolve("secret"), new byte[] {1, 2, 3});
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString(mode));
        Path byJdk = dir.resolve("by-jdk");
        Path byUs = dir.resolve("by-us");

        Files.copy(secret, byJdk);
        Transfers.copy(secret, byUs);

        assertThat(Files.getPosixFilePermissions(byUs)).isEqualTo(Files.getPosixFilePermissions(byJdk));
        assertThat(Files.readAllBytes(byUs)).containsExactly(1, 2, 3);
    }

    @Test
    void copyPath_symbolicLinkToTheSourceAsTarget() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link"), source);
        byte[] original = Files.readAllBytes(source);

        assertThatThrownBy(() -> Transfers.copy(source, link, observed()))
                .isExactlyInstanceOf(FileAlreadyExistsException.class);
        assertThat(Transfers.copy(source, link, StandardCopyOption.REPLACE_EXISTING))
                .isEqualTo(SIZE);

        assertThat(Files.isSymbolicLink(link))
                .as("the link is replaced by a copy, as Files.copy does")
                .isFalse();
        assertThat(Files.readAllBytes(link)).isEqualTo(original);
        assertThat(Files.readAllBytes(source)).isEqualTo(original);
    }

    @Test
    void copyPath_danglingSymbolicLinkTarget() throws IOException {
        Path target = Files.createSymbolicLink(dir.resolve("link"), dir.resolve("nowhere"));

        assertThatThrownBy(() -> Transfers.copy(source, target, observed()))
                .isExactlyInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.isSymbolicLink(target)).isTrue();

        assertThat(Transfers.copy(source, target, StandardCopyOption.REPLACE_EXISTING))
                .isEqualTo(SIZE);
        assertThat(Files.isSymbolicLink(target))
                .as("the link is replaced, as Files.copy does")
                .isFalse();
        assertThat(Files.readAllBytes(target)).isEqualTo(Files.readAllBytes(source));
        assertThat(Files.exists(dir.resolve("nowhere"))).isFalse();
    }

    /** Options that leave no strategy fail before the first byte, and so before the target they would replace is deleted. */
    @ParameterizedTest
    @ValueSource(strings = {"forced", "excluded"})
    void copyPath_replaceExisting_withNoStrategyLeft_keepsTheTarget(String how) throws IOException {
        Path target = Files.write(dir.resolve("target"), new byte[] {42});
        TransferOptions options = how.equals("forced")
                ? TransferOptions.builder().strategy("transferFrom").build()
                : TransferOptions.builder()
                        .exclude("transferTo", "buffered", "mmap", "native")
                        .build();

        assertThatThrownBy(() -> Transfers.copy(source, target, options, StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readAllBytes(target)).containsExactly(42);
    }

    @Test
    void copyPath_existingTarget() throws IOException {
        Path target = Files.write(dir.resolve("target"), new byte[] {42});

        assertThatThrownBy(() -> Transfers.copy(source, target, observed()))
                .isExactlyInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(target.toString());
        assertThatThrownBy(() -> Transfers.copy(source, target, observed(), StandardCopyOption.COPY_ATTRIBUTES))
                .isExactlyInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readAllBytes(target)).containsExactly(42);
        assertThat(events.calls).isEmpty();

        assertThat(Transfers.copy(source, target, StandardCopyOption.REPLACE_EXISTING))
                .isEqualTo(SIZE);
        assertThat(Files.readAllBytes(target)).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void copyPath_replaceLargerTarget() throws IOException {
        Path target = Files.write(dir.resolve("target"), new byte[10 * SIZE]);

        assertThat(Transfers.copy(source, target, StandardCopyOption.REPLACE_EXISTING))
                .isEqualTo(SIZE);

        assertThat(Files.readAllBytes(target)).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void copyPath_atomicMoveUnsupported() {
        Path target = dir.resolve("target");

        assertThatThrownBy(() -> Transfers.copy(source, target, observed(), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("ATOMIC_MOVE");
        assertThatThrownBy(() -> Transfers.copy(
                        source,
                        target,
                        observed(),
                        StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(target).doesNotExist();
        assertThat(events.calls).isEmpty();
    }

    @ParameterizedTest(name = "REPLACE_EXISTING={0}")
    @ValueSource(booleans = {false, true})
    void copyPath_ontoItself(boolean replace) throws IOException {
        byte[] before = Files.readAllBytes(source);
        CopyOption[] options = replace ? new CopyOption[] {StandardCopyOption.REPLACE_EXISTING} : new CopyOption[0];

        assertThat(Transfers.copy(source, source, options)).isZero();
        // the same file through another name
        assertThat(Transfers.copy(source, dir.resolve(".").resolve("source"), options))
                .isZero();

        assertThat(Files.readAllBytes(source)).isEqualTo(before);
    }

    @Test
    void copyPath_copyAttributesKeepsModificationTime() throws IOException {
        FileTime old = FileTime.fromMillis(978_307_200_000L); // 2001-01-01T00:00:00Z
        Files.setLastModifiedTime(source, old);

        Transfers.copy(source, dir.resolve("with"), StandardCopyOption.COPY_ATTRIBUTES);
        Transfers.copy(source, dir.resolve("without"));

        assertThat(Files.getLastModifiedTime(dir.resolve("with"))).isEqualTo(old);
        assertThat(Files.getLastModifiedTime(dir.resolve("without"))).isNotEqualTo(old);
        assertThat(Files.readAllBytes(dir.resolve("with"))).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void copyPath_nofollowLinksAccepted() throws IOException {
        assertThat(Transfers.copy(source, dir.resolve("target"), LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(SIZE);
        assertThat(Files.readAllBytes(dir.resolve("target"))).isEqualTo(Files.readAllBytes(source));
    }

    // ---------------------------------------------------------------- fakes

    /** A target that is not a JDK channel and records every write. */
    private static final class RecordingTarget implements WritableByteChannel {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int writes;
        boolean open = true;

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            writes++;
            int n = src.remaining();
            byte[] chunk = new byte[n];
            src.get(chunk);
            bytes.write(chunk, 0, n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }

    /** A source that is not a JDK channel, has one byte, and records every read. */
    private static final class RecordingSource implements ReadableByteChannel {
        int reads;
        boolean open = true;

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            reads++;
            if (reads > 1) {
                return -1;
            }
            dst.put((byte) 1);
            return 1;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }

    /** Records every listener call. */
    private static final class EventLog implements TransferListener {
        final List<String> calls = new ArrayList<>();

        @Override
        public void onStart(String strategy, long expectedBytes) {
            calls.add("start " + strategy);
        }

        @Override
        public void onProgress(long bytesSoFar) {
            calls.add("progress " + bytesSoFar);
        }

        @Override
        public void onComplete(TransferResult result) {
            calls.add("complete " + result);
        }

        @Override
        public void onFailure(TransferException failure) {
            calls.add("failure " + failure);
        }
    }
}
