package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.Closeable;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public {@code copy} overload, through {@link Transfers} and through a {@link TransferOptions}, against
 * every kind of bad input that applies to it: a null, a negative or {@code Long.MAX_VALUE} position
 * or count, a slice past the end, a closed channel, socket or stream, a read-only target, a
 * write-only source, a directory and a missing file. Each must fail with the exception
 * {@link TransferOptions}'s Javadoc documents for it, before the first byte: the real file or loopback socket
 * behind the target receives nothing, channel positions are unchanged, and a copier's listener never
 * hears of a transfer. (The unit tests in zerocopy-core pin the messages against hand-written
 * channels; this matrix covers the cross product on real files and sockets.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadInputMatrixTest {
    private static final long SEED = Seeds.announce(BadInputMatrixTest.class);

    private static final int SOURCE_SIZE = 10_000;
    private static final byte[] TARGET_CONTENT = {1, 2, 3, 4, 5, 6, 7};

    @TempDir
    static Path root;

    /** The public verbs, so that each case runs against the facade and a configured copier alike. */
    interface Api {
        long copy(Path source, WritableByteChannel target) throws IOException;

        long copy(Path source, OutputStream target) throws IOException;

        long copy(Path source, Path target, CopyOption... options) throws IOException;

        long copy(FileChannel source, long position, long count, WritableByteChannel target) throws IOException;

        long copy(ReadableByteChannel source, WritableByteChannel target) throws IOException;

        long copy(InputStream source, OutputStream target) throws IOException;
    }

    /** The static facade. */
    private static final Api TRANSFERS = new Api() {
        @Override
        public long copy(Path source, WritableByteChannel target) throws IOException {
            return Transfers.copy(source, target);
        }

        @Override
        public long copy(Path source, OutputStream target) throws IOException {
            return Transfers.copy(source, target);
        }

        @Override
        public long copy(Path source, Path target, CopyOption... options) throws IOException {
            return Transfers.copy(source, target, options);
        }

        @Override
        public long copy(FileChannel source, long position, long count, WritableByteChannel target) throws IOException {
            return Transfers.copy(source, position, count, target);
        }

        @Override
        public long copy(ReadableByteChannel source, WritableByteChannel target) throws IOException {
            return Transfers.copy(source, target);
        }

        @Override
        public long copy(InputStream source, OutputStream target) throws IOException {
            return Transfers.copy(source, target);
        }

        @Override
        public String toString() {
            return "Transfers";
        }
    };

    /** A copier with a listener and a small buffer, whose listener must stay silent. */
    private static Api copier(TransferOptions copier) {
        return new Api() {
            @Override
            public long copy(Path source, WritableByteChannel target) throws IOException {
                return Transfers.copy(source, target, copier);
            }

            @Override
            public long copy(Path source, OutputStream target) throws IOException {
                return Transfers.copy(source, target, copier);
            }

            @Override
            public long copy(Path source, Path target, CopyOption... options) throws IOException {
                return Transfers.copy(source, target, copier, options);
            }

            @Override
            public long copy(FileChannel source, long position, long count, WritableByteChannel target)
                    throws IOException {
                return Transfers.copy(source, position, count, target, copier);
            }

            @Override
            public long copy(ReadableByteChannel source, WritableByteChannel target) throws IOException {
                return Transfers.copy(source, target, copier);
            }

            @Override
            public long copy(InputStream source, OutputStream target) throws IOException {
                return Transfers.copy(source, target, copier);
            }

            @Override
            public String toString() {
                return "TransferOptions";
            }
        };
    }

    /** One bad call: the fixture gives it real files, channels and sockets. */
    @FunctionalInterface
    interface Call {
        long run(Api api, Fixture f) throws Exception;
    }

    record Case(String overload, String input, Class<? extends Throwable> expected, Call call) {}

    /**
     * Real ends for one case, in a directory of its own: {@link #source} holds random bytes,
     * {@link #target} holds {@link #TARGET_CONTENT}; channels and sockets it hands out are closed
     * afterwards, and {@link #assertNothingWritten()} checks every end a case could have written to.
     */
    static final class Fixture implements Closeable {
        final Path dir;
        final Path source;
        final Path target;
        private final Deque<Closeable> opened = new ArrayDeque<>();
        private final List<FileChannel> positioned = new ArrayList<>();

        Fixture(Path dir, long seed) throws IOException {
            this.dir = Files.createDirectories(dir);
            this.source = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(SOURCE_SIZE, seed));
            this.target = TestFiles.write(dir.resolve("target"), TARGET_CONTENT);
        }

        /** A channel on {@code file} with these options, positioned at 3 so a moved position shows. */
        FileChannel open(Path file, StandardOpenOption... options) throws IOException {
            FileChannel channel = keep(FileChannel.open(file, options));
            if (Files.isRegularFile(file)) {
                channel.position(3);
                positioned.add(channel);
            }
            return channel;
        }

        FileChannel sourceChannel() throws IOException {
            return open(source, StandardOpenOption.READ);
        }

        FileChannel targetChannel() throws IOException {
            return open(target, StandardOpenOption.WRITE);
        }

        FileChannel closed(FileChannel channel) throws IOException {
            channel.close();
            return channel;
        }

        /** A directory, which Linux lets a {@code FileChannel} open for reading. */
        Path directory() throws IOException {
            Path directory = Files.createDirectories(dir.resolve("a-directory"));
            Files.write(directory.resolve("inside"), new byte[] {9});
            return directory;
        }

        Path missing() {
            return dir.resolve("missing");
        }

        FileOutputStream targetStream() throws IOException {
            return keep(new FileOutputStream(target.toFile(), true));
        }

        FileInputStream sourceStream() throws IOException {
            return keep(new FileInputStream(source.toFile()));
        }

        <T extends Closeable> T keep(T closeable) {
            opened.push(closeable);
            return closeable;
        }

        void assertNothingWritten() throws Exception {
            for (FileChannel channel : positioned) {
                if (channel.isOpen()) {
                    assertThat(channel.position()).as("position of " + channel).isEqualTo(3);
                }
            }
            close();
            assertThat(Files.readAllBytes(target)).as("the target file").isEqualTo(TARGET_CONTENT);
            assertThat(Files.size(source)).as("the source file").isEqualTo(SOURCE_SIZE);
        }

        @Override
        public void close() throws IOException {
            while (!opened.isEmpty()) {
                opened.pop().close();
            }
        }
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;

        String pathToChannel = "copy(Path, WritableByteChannel)";
        cases.add(new Case(pathToChannel, "null source", npe, (api, f) -> api.copy((Path) null, f.targetChannel())));
        cases.add(new Case(
                pathToChannel, "null target", npe, (api, f) -> api.copy(f.source, (WritableByteChannel) null)));
        cases.add(new Case(
                pathToChannel,
                "closed target",
                ClosedChannelException.class,
                (api, f) -> api.copy(f.source, f.closed(f.targetChannel()))));
        cases.add(new Case(
                pathToChannel,
                "read-only target",
                NonWritableChannelException.class,
                (api, f) -> api.copy(f.source, f.open(f.target, StandardOpenOption.READ))));
        cases.add(new Case(
                pathToChannel,
                "directory source",
                IOException.class,
                (api, f) -> api.copy(f.directory(), f.targetChannel())));
        cases.add(new Case(
                pathToChannel,
                "missing source",
                NoSuchFileException.class,
                (api, f) -> api.copy(f.missing(), f.targetChannel())));

        String pathToStream = "copy(Path, OutputStream)";
        cases.add(new Case(pathToStream, "null source", npe, (api, f) -> api.copy((Path) null, f.targetStream())));
        cases.add(new Case(pathToStream, "null target", npe, (api, f) -> api.copy(f.source, (OutputStream) null)));
        cases.add(new Case(pathToStream, "closed FileOutputStream", ClosedChannelException.class, (api, f) -> {
            FileOutputStream out = f.targetStream();
            out.close();
            return api.copy(f.source, out);
        }));
        cases.add(new Case(
                pathToStream,
                "directory source",
                IOException.class,
                (api, f) -> api.copy(f.directory(), f.targetStream())));
        cases.add(new Case(
                pathToStream,
                "missing source",
                NoSuchFileException.class,
                (api, f) -> api.copy(f.missing(), f.targetStream())));

        String pathToPath = "copy(Path, Path, CopyOption...)";
        cases.add(new Case(pathToPath, "null source", npe, (api, f) -> api.copy((Path) null, f.dir.resolve("new"))));
        cases.add(new Case(pathToPath, "null target", npe, (api, f) -> api.copy(f.source, (Path) null)));
        cases.add(new Case(
                pathToPath,
                "null options",
                npe,
                (api, f) -> api.copy(f.source, f.dir.resolve("new"), (CopyOption[]) null)));
        cases.add(new Case(
                pathToPath,
                "null option",
                npe,
                (api, f) -> api.copy(f.source, f.dir.resolve("new"), (CopyOption) null)));
        cases.add(new Case(
                pathToPath,
                "existing target",
                FileAlreadyExistsException.class,
                (api, f) -> api.copy(f.source, f.target)));
        cases.add(new Case(
                pathToPath,
                "directory as target",
                FileAlreadyExistsException.class,
                (api, f) -> api.copy(f.source, f.directory())));
        cases.add(new Case(
                pathToPath,
                "non-empty directory replaced",
                DirectoryNotEmptyException.class,
                (api, f) -> api.copy(f.source, f.directory(), StandardCopyOption.REPLACE_EXISTING)));
        cases.add(new Case(
                pathToPath,
                "missing source",
                NoSuchFileException.class,
                (api, f) -> api.copy(f.missing(), f.dir.resolve("new"))));
        cases.add(new Case(
                pathToPath,
                "target in a missing directory",
                NoSuchFileException.class,
                (api, f) -> api.copy(f.source, f.missing().resolve("new"))));
        cases.add(new Case(
                pathToPath,
                "unsupported option",
                UnsupportedOperationException.class,
                (api, f) -> api.copy(f.source, f.dir.resolve("new"), StandardCopyOption.ATOMIC_MOVE)));

        String slice = "copy(FileChannel, long, long, WritableByteChannel)";
        cases.add(new Case(slice, "null source", npe, (api, f) -> api.copy(null, 0, 1, f.targetChannel())));
        cases.add(new Case(slice, "null target", npe, (api, f) -> api.copy(f.sourceChannel(), 0, 1, null)));
        cases.add(new Case(
                slice, "negative position", iae, (api, f) -> api.copy(f.sourceChannel(), -1, 1, f.targetChannel())));
        cases.add(new Case(
                slice, "negative count", iae, (api, f) -> api.copy(f.sourceChannel(), 0, -1, f.targetChannel())));
        cases.add(new Case(
                slice,
                "Long.MIN_VALUE position",
                iae,
                (api, f) -> api.copy(f.sourceChannel(), Long.MIN_VALUE, 1, f.targetChannel())));
        cases.add(new Case(
                slice,
                "Long.MAX_VALUE position",
                iae,
                (api, f) -> api.copy(f.sourceChannel(), Long.MAX_VALUE, 1, f.targetChannel())));
        cases.add(new Case(
                slice,
                "Long.MAX_VALUE count",
                iae,
                (api, f) -> api.copy(f.sourceChannel(), 0, Long.MAX_VALUE, f.targetChannel())));
        cases.add(new Case(
                slice,
                "Long.MAX_VALUE position and count",
                iae,
                (api, f) -> api.copy(f.sourceChannel(), Long.MAX_VALUE, Long.MAX_VALUE, f.targetChannel())));
        cases.add(new Case(
                slice,
                "position past the end",
                iae,
                (api, f) -> api.copy(f.sourceChannel(), SOURCE_SIZE + 1, 0, f.targetChannel())));
        cases.add(new Case(
                slice,
                "slice past the end",
                iae,
                (api, f) -> api.copy(f.sourceChannel(), SOURCE_SIZE - 10, 11, f.targetChannel())));
        cases.add(new Case(
                slice,
                "closed source",
                ClosedChannelException.class,
                (api, f) -> api.copy(f.closed(f.sourceChannel()), 0, 1, f.targetChannel())));
        cases.add(new Case(
                slice,
                "closed target",
                ClosedChannelException.class,
                (api, f) -> api.copy(f.sourceChannel(), 0, 1, f.closed(f.targetChannel()))));
        cases.add(new Case(
                slice,
                "read-only target",
                NonWritableChannelException.class,
                (api, f) -> api.copy(f.sourceChannel(), 0, 1, f.open(f.target, StandardOpenOption.READ))));
        cases.add(new Case(
                slice,
                "write-only source",
                NonReadableChannelException.class,
                (api, f) -> api.copy(f.open(f.source, StandardOpenOption.WRITE), 0, 1, f.targetChannel())));
        cases.add(new Case(
                slice,
                "directory source",
                IOException.class,
                (api, f) -> api.copy(f.open(f.directory(), StandardOpenOption.READ), 0, 1, f.targetChannel())));

        String channels = "copy(ReadableByteChannel, WritableByteChannel)";
        cases.add(new Case(
                channels, "null source", npe, (api, f) -> api.copy((ReadableByteChannel) null, f.targetChannel())));
        cases.add(new Case(
                channels, "null target", npe, (api, f) -> api.copy((ReadableByteChannel) f.sourceChannel(), null)));
        cases.add(new Case(
                channels,
                "closed source",
                ClosedChannelException.class,
                (api, f) -> api.copy((ReadableByteChannel) f.closed(f.sourceChannel()), f.targetChannel())));
        cases.add(new Case(
                channels,
                "closed target",
                ClosedChannelException.class,
                (api, f) -> api.copy((ReadableByteChannel) f.sourceChannel(), f.closed(f.targetChannel()))));
        cases.add(new Case(
                channels,
                "read-only target",
                NonWritableChannelException.class,
                (api, f) ->
                        api.copy((ReadableByteChannel) f.sourceChannel(), f.open(f.target, StandardOpenOption.READ))));
        cases.add(new Case(
                channels,
                "write-only source",
                NonReadableChannelException.class,
                (api, f) ->
                        api.copy((ReadableByteChannel) f.open(f.source, StandardOpenOption.WRITE), f.targetChannel())));
        cases.add(new Case(
                channels,
                "directory source",
                IOException.class,
                (api, f) -> api.copy(
                        (ReadableByteChannel) f.open(f.directory(), StandardOpenOption.READ), f.targetChannel())));

        String streams = "copy(InputStream, OutputStream)";
        cases.add(new Case(streams, "null source", npe, (api, f) -> api.copy((InputStream) null, f.targetStream())));
        cases.add(new Case(streams, "null target", npe, (api, f) -> api.copy(f.sourceStream(), (OutputStream) null)));
        cases.add(new Case(streams, "closed FileInputStream", ClosedChannelException.class, (api, f) -> {
            FileInputStream in = f.sourceStream();
            in.close();
            return api.copy(in, f.targetStream());
        }));
        cases.add(new Case(streams, "closed FileOutputStream", ClosedChannelException.class, (api, f) -> {
            FileOutputStream out = f.targetStream();
            out.close();
            return api.copy(f.sourceStream(), out);
        }));
        return cases;
    }

    @TestFactory
    Stream<DynamicNode> copy_badInput() {
        List<DynamicNode> overloads = new ArrayList<>();
        List<Case> all = cases();
        int[] counter = {0};
        for (String overload : all.stream().map(Case::overload).distinct().toList()) {
            List<DynamicNode> tests = new ArrayList<>();
            for (Case c : all) {
                if (!c.overload().equals(overload)) {
                    continue;
                }
                for (String flavour : new String[] {"Transfers", "TransferOptions"}) {
                    int index = counter[0]++;
                    tests.add(DynamicTest.dynamicTest(
                            flavour + ": " + c.input() + " -> " + c.expected().getSimpleName(),
                            () -> run(c, flavour, index)));
                }
            }
            overloads.add(DynamicContainer.dynamicContainer(overload, tests));
        }
        return overloads.stream();
    }

    private static void run(Case c, String flavour, int index) throws Exception {
        TransferListener listener = mock(TransferListener.class);
        Api api = flavour.equals("Transfers")
                ? TRANSFERS
                : copier(TransferOptions.builder()
                        .listener(listener)
                        .bufferSize(4096)
                        .build());
        Fixture fixture = new Fixture(root.resolve("case-" + index), Seeds.derive(SEED, index));
        try {
            Throwable thrown = catchThrowable(() -> c.call().run(api, fixture));

            assertThat(thrown)
                    .as("%s with %s (seed %d)", c.overload(), c.input(), SEED)
                    .isInstanceOf(c.expected())
                    .isNotInstanceOf(TransferException.class);
            fixture.assertNothingWritten();
            verifyNoInteractions(listener); // no transfer started, none ended
        } finally {
            fixture.close();
        }
    }
}
