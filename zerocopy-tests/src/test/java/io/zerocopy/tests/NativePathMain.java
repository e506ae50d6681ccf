package io.zerocopy.tests;

import io.zerocopy.OpenDirectory;
import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import io.zerocopy.SymbolicLinkException;
import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * The child JVM of {@link NativePathRun}: for every file in the directory given (as the JDK
 * lists it) and for {@code rel.txt} relative to {@code user.dir}, reads it through every public
 * entry point that takes a path or a name and may open natively, and prints one line per file and
 * entry point: {@code file PATH ENTRY natively|jdk|- same|DIFFERENT(why)}, PATH {@code served/NAME}
 * for a listed file and {@code rel.txt} for the relative one, {@code -} where it failed,
 * {@code same} where it read what {@code Files.readAllBytes(path)} reads or failed as that fails;
 * an entry that does not follow a link at the last step, what the JDK's {@code FileChannel.open}
 * with {@code NOFOLLOW_LINKS} reads, and one beneath a directory refuses a link with
 * {@link SymbolicLinkException}.
 *
 * <p>An entry beneath a directory takes the name's text ({@code path.getFileName().toString()}).
 * Where that text spells another name than the listed one (a Latin-1 name under a UTF-8 locale:
 * the text of the file named as the lossy decode reads; any non-ASCII name under {@code LC_ALL=C}:
 * no name at all), no string can name the listed file, and the line reads {@code beneath-by-text}:
 * it must read what the JDK reads at {@code dir.resolve(text)}, or fail as that fails.
 */
public final class NativePathMain {
    private NativePathMain() {}

    /** Args: the directory of names, an empty directory for {@code Transfers.copy(Path, Path)}'s targets. */
    public static void main(String[] args) throws Exception {
        System.out.println("os.arch " + System.getProperty("os.arch"));
        Path served = Path.of(args[0]);
        Path copies = Path.of(args[1]);
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> listed = Files.list(served)) {
            listed.sorted().forEach(paths::add);
        }
        paths.add(Path.of("rel.txt"));
        try (OpenDirectory servedOpen = OpenDirectory.open(served);
                OpenDirectory userDirOpen = OpenDirectory.open(Path.of(""))) {
            for (Path path : paths) {
                String shown = path.isAbsolute() ? "served/" + path.getFileName() : path.toString();
                Outcome expected = Outcome.of(() -> new Read(Files.readAllBytes(path), false));
                // a link at the last step: refused where links are not followed, as the JDK refuses it
                Outcome unfollowed = Outcome.of(() -> new Read(readNotFollowing(path), false));
                Entry entry = (name, read) -> System.out.println(
                        "file " + shown + " " + name + " " + Outcome.of(read).against(expected));
                Entry notFollowing = (name, read) -> System.out.println(
                        "file " + shown + " " + name + " " + Outcome.of(read).against(unfollowed));

                entry.check("open", () -> readAll(OpenFile.open(path)));
                notFollowing.check("open-nofollow", () -> readAll(OpenFile.open(path, LinkOption.NOFOLLOW_LINKS)));
                entry.check("copy-to-socket", () -> sent(path, Send.COPY));
                entry.check("transfer-to-socket", () -> sent(path, Send.OPEN));
                entry.check("copy-async", () -> sent(path, Send.ASYNC));
                entry.check("copy-to-stream", () -> streamed(path));
                // caches of their own per path: the names beneath of two paths can be one text
                try (OpenFileCache kept = OpenFileCache.create(100, Duration.ofDays(1));
                        OpenFileCache looked = OpenFileCache.create(100, Duration.ZERO)) {
                    entry.check("cache-miss", () -> counted(kept, OpenFileCache.Stats::misses, () -> kept.open(path)));
                    entry.check("cache-hit", () -> counted(kept, OpenFileCache.Stats::hits, () -> kept.open(path)));
                    entry.check("cache-relook", () -> lookedAgain(looked, () -> looked.open(path)));
                    notFollowing.check(
                            "cache-nofollow",
                            () -> lookedAgain(looked, () -> looked.open(path, LinkOption.NOFOLLOW_LINKS)));
                }
                entry.check("copy-to-file", () -> copied(path, copies.resolve(path.getFileName())));

                // beneath: the directory the path is in, the empty path (user.dir) for a relative one
                Path dir = path.isAbsolute() ? path.getParent() : Path.of("");
                OpenDirectory open = path.isAbsolute() ? servedOpen : userDirOpen;
                String text = path.getFileName().toString();
                boolean spelled = spells(dir, text, path);
                Outcome meant = Files.isSymbolicLink(path)
                        ? new Outcome(null, new SymbolicLinkException(path.toString())) // beneath refuses every link
                        : spelled ? expected : Outcome.of(() -> new Read(Files.readAllBytes(dir.resolve(text)), false));
                String beneath = spelled ? "beneath" : "beneath-by-text";
                Entry byText = (name, read) -> System.out.println(
                        "file " + shown + " " + name + " " + Outcome.of(read).against(meant));
                byText.check(beneath, () -> {
                    try (OpenDirectory directory = OpenDirectory.open(dir)) {
                        return readAll(directory.openBeneath(List.of(text)));
                    }
                });
                byText.check("open-" + beneath, () -> readAll(OpenFile.openBeneath(dir, List.of(text))));
                try (OpenFileCache looked = OpenFileCache.create(100, Duration.ZERO)) {
                    byText.check(
                            "cache-" + beneath,
                            () -> lookedAgain(looked, () -> looked.openBeneath(open, List.of(text))));
                }
            }
        }
    }

    /** Whether {@code text}, as the JDK makes a path of it beneath {@code dir}, is {@code path}'s own bytes. */
    private static boolean spells(Path dir, String text, Path path) {
        try {
            return dir.resolve(text).equals(path);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** What one entry point read: the bytes, and whether the file was opened natively. */
    record Read(byte[] bytes, boolean natively) {}

    interface Reading {
        Read read() throws Exception;
    }

    private interface Opening {
        OpenFile open() throws Exception;
    }

    private interface Entry {
        void check(String name, Reading reading);
    }

    /** An entry point's bytes, or its failure's class (its message for the line). */
    record Outcome(Read read, Throwable failure) {
        static Outcome of(Reading reading) {
            try {
                return new Outcome(reading.read(), null);
            } catch (Exception | AssertionError e) {
                return new Outcome(null, e);
            }
        }

        /** {@code natively|jdk|- same|DIFFERENT(why)}. */
        String against(Outcome expected) {
            String how = read == null ? "-" : read.natively() ? "natively" : "jdk";
            String verdict;
            if (expected.failure != null) {
                verdict = failure != null && failure.getClass() == expected.failure.getClass()
                        ? "same"
                        : "DIFFERENT(expected " + expected.failure + ", got "
                                + (failure != null ? failure : "bytes " + text(read.bytes())) + ")";
            } else if (failure != null) {
                verdict = "DIFFERENT(expected bytes " + text(expected.read.bytes()) + ", got " + failure + ")";
            } else {
                verdict = Arrays.equals(read.bytes(), expected.read.bytes())
                        ? "same"
                        : "DIFFERENT(expected bytes " + text(expected.read.bytes()) + ", got " + text(read.bytes())
                                + ")";
            }
            return how + " " + verdict;
        }

        private static String text(byte[] bytes) {
            return "'" + new String(bytes, StandardCharsets.ISO_8859_1) + "'";
        }
    }

    /** The file's bytes as the JDK reads them without following a link at the last step. */
    private static byte[] readNotFollowing(Path path) throws Exception {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer all = ByteBuffer.allocate((int) channel.size());
            while (all.hasRemaining() && channel.read(all) >= 0) {
                // read to the end
            }
            return Arrays.copyOf(all.array(), all.position());
        }
    }

    /** Reads the whole file through its channel, then closes it. */
    static Read readAll(OpenFile opened) throws Exception {
        try (OpenFile file = opened) {
            ByteBuffer all = ByteBuffer.allocate((int) file.channel().size());
            while (all.hasRemaining() && file.channel().read(all, all.position()) >= 0) {
                // read to the end, at positions: a cached channel is shared
            }
            return new Read(Arrays.copyOf(all.array(), all.position()), file.openedNatively());
        }
    }

    /** The file opened from a cache, which must count it under {@code counter} (a miss, a hit). */
    private static Read counted(OpenFileCache cache, ToLongFunction<OpenFileCache.Stats> counter, Opening opening)
            throws Exception {
        long before = counter.applyAsLong(cache.stats());
        Read read = readAll(opening.open());
        long after = counter.applyAsLong(cache.stats());
        if (after != before + 1) {
            throw new AssertionError("the cache counted " + (after - before) + " instead of 1: " + cache.stats());
        }
        return read;
    }

    /**
     * The file opened twice from a cache that looks at every open ({@link Duration#ZERO}): a miss,
     * then a look by name that finds it unchanged (a hit); what the second open read.
     */
    private static Read lookedAgain(OpenFileCache cache, Opening opening) throws Exception {
        counted(cache, OpenFileCache.Stats::misses, opening);
        return counted(cache, OpenFileCache.Stats::hits, opening);
    }

    /** How a file goes into a socket: {@code Transfers.copy}, {@code Transfers.open} advanced to its end, {@code copyAsync}. */
    enum Send {
        COPY,
        OPEN,
        ASYNC
    }

    /** The file sent into a loopback socket as {@code how} says; natively where the native strategy sent it. */
    static Read sent(Path path, Send how) throws Exception {
        RecordingListener listener = new RecordingListener();
        TransferOptions options = TransferOptions.builder().listener(listener).build();
        long moved;
        LoopbackReceiver.Received received;
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            moved = switch (how) {
                case COPY -> Transfers.copy(path, (WritableByteChannel) channel, options);
                case OPEN -> driven(Transfers.open(path, (WritableByteChannel) channel, options));
                case ASYNC -> {
                    try {
                        yield Transfers.copyAsync(path, channel, Runnable::run, options)
                                .get()
                                .bytesTransferred();
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof Exception cause ? cause : e;
                    }
                }
            };
            channel.shutdownOutput();
            received = receiver.received();
        }
        byte[] expected = Files.readAllBytes(path);
        if (moved != expected.length
                || received.bytes() != expected.length
                || received.crc32c() != TestFiles.crc32c(expected)) {
            // not the file the JDK reads: the siblings' sizes differ, so the count names which
            throw new AssertionError("sent " + moved + " bytes, received " + received);
        }
        return new Read(expected, "native".equals(listener.strategy()));
    }

    /** Advances a transfer into a blocking socket to its end (each advance one step); the bytes moved. */
    private static long driven(Transfer opened) throws Exception {
        try (Transfer transfer = opened) {
            for (int steps = 0; !transfer.isDone(); steps++) {
                if (steps == 1000) {
                    throw new AssertionError("not done after 1000 advances: " + transfer);
                }
                transfer.advance();
            }
            return transfer.bytesTransferred();
        }
    }

    /** The file written into a stream by {@code Transfers.copy(Path, OutputStream)}. */
    private static Read streamed(Path path) throws Exception {
        RecordingListener listener = new RecordingListener();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long moved = Transfers.copy(
                path, out, TransferOptions.builder().listener(listener).build());
        if (moved != out.size()) {
            throw new AssertionError("copied " + moved + " bytes, the stream holds " + out.size());
        }
        return new Read(out.toByteArray(), "native".equals(listener.strategy()));
    }

    /** The file copied to {@code target} by {@code Transfers.copy(Path, Path)}, read back; natively as the strategy says. */
    private static Read copied(Path path, Path target) throws Exception {
        RecordingListener listener = new RecordingListener();
        long moved = Transfers.copy(
                path, target, TransferOptions.builder().listener(listener).build());
        byte[] bytes = Files.readAllBytes(target);
        Files.delete(target); // rel.txt is listed too, and copied to the same name
        if (moved != bytes.length) {
            throw new AssertionError("copied " + moved + " bytes, the target holds " + bytes.length);
        }
        return new Read(bytes, "native".equals(listener.strategy()));
    }
}
