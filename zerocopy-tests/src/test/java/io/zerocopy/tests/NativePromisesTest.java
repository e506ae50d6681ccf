package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.OpenFile;
import io.zerocopy.Transfer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promises the JDK's channels keep that the native path (openat, fstat, pread, sendfile) must
 * keep too, tried as a user breaks them: the file a path names, whatever the locale and
 * {@code user.dir}; a close by another thread and a stall that end a blocked send; and the table's
 * rule for which calls move the file. This module's native-access run.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NativePromisesTest {
    private static final long SEED = Seeds.announce(NativePromisesTest.class);

    @TempDir
    Path dir;

    /**
     * The file a path names, whatever the locale and {@code user.dir}, at every entry point that
     * takes a path or a name ({@link NativePathRun}); a file above 8 KiB goes by {@code sendfile}
     * into the socket's descriptor here, from the same open.
     */
    @ParameterizedTest(name = "LC_ALL={0}")
    @ValueSource(strings = {"C.UTF-8", "C"})
    void everyPath_opensTheFileTheJdkOpens(String locale) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String printed = NativePathRun.run(dir, List.of(java), locale, SEED, 60);
        NativePathRun.assertTheJdksFilesEverywhere(printed);
        NativePathRun.assertOpenedNatively(printed);
        for (String entry : List.of("copy-to-socket", "transfer-to-socket", "copy-async")) {
            assertThat(printed).contains("file served/big.bin " + entry + " natively same");
        }
    }

    /** Another thread's close ends a {@code sendfile} into a blocking socket whose peer reads nothing, and the peer sees the end. */
    @Test
    @SuppressWarnings("try") // the close in the body is what is tested, while the copy runs on its own thread
    void closeByAnotherThread_endsABlockedSend_andThePeerSeesTheEnd() throws Exception {
        Path file = sparse(256L << 20);
        CountDownLatch progressed = new CountDownLatch(1);
        TransferOptions watched = TransferOptions.builder()
                .listener(new RecordingListener(bytes -> progressed.countDown()))
                .build();
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            CompletableFuture<Throwable> outcome = copyOnAPlatformThread(file, channel, watched);
            assertThat(progressed.await(30, TimeUnit.SECONDS)).as("progress").isTrue();

            channel.close();

            Throwable failure = outcome.get(5, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferException.class);
            receiver.openGate();
            CompletableFuture<LoopbackReceiver.Received> seen = CompletableFuture.supplyAsync(() -> {
                try {
                    return receiver.received();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(seen.get(5, TimeUnit.SECONDS).bytes())
                    .as("bytes before the end")
                    .isPositive();
        }
    }

    /** A blocking socket whose peer stops reading fails after the stall timeout: the native path never waits in the kernel. */
    @Test
    void blockingSocketThatStaysFull_failsAfterTheStallTimeout() throws Exception {
        Path file = sparse(64L << 20);
        TransferOptions options =
                TransferOptions.builder().stallTimeout(Duration.ofSeconds(1)).build();
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            Throwable failure = copyOnAPlatformThread(file, channel, options).get(30, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferTimeoutException.class);
            assertThat(((TransferException) failure).bytesTransferred()).isPositive();
            receiver.openGate();
        }
    }

    /** A handle advanced on a full socket whose output is then shut down fails at its next advance rather than return 0 for ever. */
    @Test
    void shutdownOutput_failsTheNextAdvanceOfAHandleOnAFullSocket() throws Exception {
        Path file = sparse(64L << 20);
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel();
                Transfer transfer = Transfers.open(file, channel)) {
            for (int advances = 0; transfer.advance() > 0; advances++) {
                assertThat(advances).as("advances before the socket is full").isLessThan(10_000);
            }

            channel.shutdownOutput();

            assertThatThrownBy(transfer::advance).isInstanceOf(TransferException.class);
            receiver.openGate();
        }
    }

    /**
     * Where the system limits the bytes a socket holds unsent ({@code net.ipv4.tcp_notsent_lowat}),
     * a write past that limit waits in the kernel however free the buffer is: a native send asks
     * for no more than the limit leaves, so another thread's close and the stall timeout still end
     * it. Run in a child JVM in a network namespace of its own with the limit set (root only).
     */
    @Test
    void aLimitOnUnsentBytes_neverHoldsASendInTheKernel() throws Exception {
        assumeTrue(Integer.valueOf(0).equals(Files.getAttribute(dir, "unix:uid")), "needs root: a network namespace");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "needs unshare (util-linux)");
        assumeTrue(
                Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                        .anyMatch(bin -> !bin.isEmpty() && Files.isExecutable(Path.of(bin, "ip"))),
                "needs ip (iproute2)");
        Path file = sparse(64L << 20);
        String printed = ChildJvm.run(
                dir,
                List.of(
                        "unshare",
                        "--net",
                        "sh",
                        "-c",
                        "ip link set lo up && echo 16384 > /proc/sys/net/ipv4/tcp_notsent_lowat && exec \"$@\"",
                        "sh"),
                List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED"),
                NotSentLimitMain.class,
                Duration.ofSeconds(90),
                file.toString());
        assertThat(printed).contains("close ended TransferException").contains("stall ended TransferTimeoutException");
    }

    /**
     * A small file to a peer on this host is read whole when its transfer opens, so a handle sends
     * it as it was then, whatever happens to the file before the first advance (the promise of
     * {@code Transfer}'s type doc), natively opened or not.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rewritten", "cut to half"})
    void aSmallFileHandedOut_isSentAsItWasWhenItsTransferOpened(String change) throws Exception {
        byte[] then = TestFiles.randomBytes(4096, SEED);
        Path file = Files.write(dir.resolve("small"), then);
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            try (SocketChannel channel = receiver.connectChannel()) {
                channel.configureBlocking(false);
                try (Transfer transfer = Transfers.open(file, channel)) {
                    if (change.equals("rewritten")) {
                        Files.write(file, TestFiles.randomBytes(4096, SEED + 1));
                    } else {
                        Files.write(file, java.util.Arrays.copyOf(then, 2048));
                    }
                    for (int advances = 0; !transfer.isDone(); advances++) {
                        assertThat(advances).as("advances").isLessThan(100_000);
                        transfer.advance();
                    }
                }
            }
            assertThat(receiver.received())
                    .isEqualTo(new LoopbackReceiver.Received(then.length, TestFiles.crc32c(then)));
        }
    }

    /**
     * A virtual thread copying a FIFO no writer has come to yet leaves its carrier free while it
     * waits, so that the writer, a virtual thread too, can run on a scheduler of one carrier. Run
     * in a child JVM with that scheduler.
     */
    @Test
    void aVirtualThreadWaitingOnAFifo_leavesItsCarrierFree() throws Exception {
        Path fifo = TestFiles.fifo(dir.resolve("fifo"));
        Path warmUp = TestFiles.fifo(dir.resolve("warm-up"));
        String printed = ChildJvm.run(
                dir,
                List.of(
                        "-Djdk.virtualThreadScheduler.parallelism=1",
                        "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-exports",
                        "java.base/sun.nio.ch=ALL-UNNAMED"),
                FifoOneCarrierMain.class,
                Duration.ofSeconds(90),
                fifo.toString(),
                warmUp.toString());
        assertThat(printed).contains("copied 5000");
    }

    /**
     * With no descriptor free, a file and a socket opened before still make a send, as on the JDK
     * path, which needs none (the native one sends through the socket's own write where it cannot
     * duplicate its descriptor); a copy by path fails with the exception the JDK's own open throws
     * then, and an {@code OpenFile}, opened by path or beneath a directory, with the
     * {@code ResourceShortageException} it promises. Run in a child JVM under {@code prlimit --nofile}.
     */
    @Test
    void aFullDescriptorTable_failsOnlyWhatTheJdkFails() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs prlimit (util-linux)");
        Path file = dir.resolve("body");
        Files.write(file, new byte[64 * 1024]);
        String printed = ChildJvm.run(
                dir,
                List.of("prlimit", "--nofile=256:256"),
                List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED"),
                NoDescriptorFreeMain.class,
                Duration.ofSeconds(90),
                file.toString());
        assertThat(printed).contains("region sent 65536", "after sent 65536");
        String path = line(printed, "path ");
        String jdk = line(printed, "jdk ");
        assertThat(path.substring(0, path.indexOf(' ')))
                .as(printed)
                .isEqualTo(jdk.substring(0, jdk.indexOf(' ')))
                .isEqualTo("java.nio.file.FileSystemException");
        assertThat(line(printed, "open ")).startsWith("io.zerocopy.ResourceShortageException (");
        assertThat(line(printed, "beneath ")).startsWith("io.zerocopy.ResourceShortageException (");
    }

    /** The text after {@code start} on the line of {@code printed} that begins with it. */
    private static String line(String printed, String start) {
        return printed.lines()
                .filter(l -> l.startsWith(start))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + start + "in " + printed))
                .substring(start.length());
    }

    /**
     * Which calls send a natively opened file is the table's row: to a peer on this host one read up
     * to 8 KiB, {@code sendfile} above, as for a JDK file.
     */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {4096, 8192, 8193, 16384, 65536})
    void aFileToAPeerOnThisHost_goesByOneReadUpTo8KiB_bySendfileAbove(int size) throws Exception {
        Path file = TestFiles.write(dir.resolve("f"), TestFiles.randomBytes(size, SEED));
        RecordingListener listener = new RecordingListener();
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            long sent = Transfers.copy(
                    file,
                    (WritableByteChannel) channel,
                    TransferOptions.builder().listener(listener).build());
            channel.shutdownOutput();
            assertThat(sent).isEqualTo(size);
            assertThat(receiver.received().crc32c()).isEqualTo(TestFiles.crc32c(file));
        }
        assertThat(listener.strategy()).isEqualTo("native");
        assertThat(listener.result().reason()).contains(size <= 8192 ? "pread" : "sendfile");
    }

    /**
     * {@code transferTo} excluded, by the options or the system property, takes {@code sendfile} with
     * it: a file from a path, or an {@link OpenFile} opened natively, then goes as a JDK file goes
     * without it (the file without {@code /proc} to reopen it: {@code NativeReopenTest}).
     */
    @ParameterizedTest(name = "excluded by {0}")
    @ValueSource(strings = {"options", "property"})
    void transferToExcluded_noFileGoesBySendfile(String by) throws Exception {
        int size = 1 << 20;
        Path file = TestFiles.write(dir.resolve("f"), TestFiles.randomBytes(size, SEED));
        RecordingListener fromPath = new RecordingListener();
        RecordingListener fromOpenFile = new RecordingListener();
        TransferOptions.Builder options =
                by.equals("options") ? TransferOptions.builder().exclude("transferTo") : TransferOptions.builder();
        if (by.equals("property")) {
            System.setProperty(TransferOptions.EXCLUDE_PROPERTY, "transferTo");
        }
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel();
                OpenFile opened = OpenFile.open(file)) {
            assertThat(opened.openedNatively()).isTrue();
            Transfers.copy(
                    file,
                    (WritableByteChannel) channel,
                    options.listener(fromPath).build());
            Transfers.copy(
                    opened.channel(),
                    0,
                    size,
                    channel,
                    options.listener(fromOpenFile).build());
            channel.shutdownOutput();
            assertThat(receiver.received().bytes()).isEqualTo(2L * size);
        } finally {
            System.clearProperty(TransferOptions.EXCLUDE_PROPERTY);
        }
        assertThat(fromPath.strategy()).isEqualTo("buffered");
        assertThat(fromPath.result().reason()).contains("transferTo").doesNotContain("sendfile");
        assertThat(fromOpenFile.strategy()).isEqualTo("buffered");
        assertThat(fromOpenFile.result().reason()).contains("transferTo").doesNotContain("sendfile");
    }

    /**
     * Every {@code sendfile} works on a duplicate of the socket's descriptor, made at the first move
     * and closed with the transfer, so that another thread's close never makes a call land on a
     * number the kernel gave out again: two descriptors on the socket during a move, one after the
     * transfer, whether it ended in one move or failed after many.
     */
    @Test
    void sendfile_worksOnADuplicateOfTheSocket_closedWithTheTransfer() throws Exception {
        Path small = TestFiles.write(dir.resolve("small"), TestFiles.randomBytes(64 * 1024, SEED));
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20); // room for the whole file at once
            AtomicLong during = new AtomicLong(-1);
            TransferOptions told = TransferOptions.builder()
                    .listener(new RecordingListener(bytes -> during.compareAndSet(-1, descriptorsOf(channel))))
                    .build();
            assertThat(Transfers.copy(small, (WritableByteChannel) channel, told))
                    .isEqualTo(64 * 1024);
            assertThat(during.get())
                    .as("the socket's descriptors during its one move")
                    .isEqualTo(2);
            assertThat(descriptorsOf(channel)).as("after the transfer").isEqualTo(1);
        }
        Path big = sparse(64L << 20);
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            AtomicLong after = new AtomicLong(-1);
            AtomicInteger moves = new AtomicInteger();
            TransferOptions told = TransferOptions.builder()
                    .stallTimeout(Duration.ofSeconds(1))
                    .listener(new RecordingListener(bytes -> {
                        if (moves.incrementAndGet() == 2) {
                            after.set(descriptorsOf(channel));
                        }
                    }))
                    .build();
            Throwable failure = copyOnAPlatformThread(big, channel, told).get(30, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(TransferTimeoutException.class);
            assertThat(moves.get()).as("moves before the peer's buffer filled").isGreaterThanOrEqualTo(2);
            assertThat(after.get())
                    .as("the socket's descriptors after its first move")
                    .isEqualTo(2);
            assertThat(descriptorsOf(channel)).as("after the failure").isEqualTo(1);
            receiver.openGate();
        }
    }

    /** How many of this process's descriptors are {@code channel}'s socket (found by its local port in {@code /proc/net}). */
    private static long descriptorsOf(SocketChannel channel) {
        try {
            int port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
            String inode = null;
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[1].endsWith(String.format(":%04X", port)) && !f[9].equals("0")) {
                        inode = f[9];
                    }
                }
            }
            String link = "socket:[" + inode + "]";
            try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
                return fds.filter(fd -> {
                            try {
                                return Files.readSymbolicLink(fd).toString().equals(link);
                            } catch (Exception e) {
                                return false; // closed meanwhile, or not a link
                            }
                        })
                        .count();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A natively opened file that is never closed gives its descriptor back once it is unreachable. */
    @Test
    void aFileNeverClosed_isReleasedWhenUnreachable() throws Exception {
        Path file = TestFiles.write(dir.resolve("forgotten"), new byte[100]);
        openAndForget(file);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (openDescriptorsOf(file) > 0) {
            assertThat(System.nanoTime()).as("released within 30 s of GCs").isLessThan(deadline);
            System.gc();
            Thread.onSpinWait();
        }
    }

    private static void openAndForget(Path file) throws Exception {
        OpenFile opened = OpenFile.open(file);
        assertThat(opened.openedNatively()).isTrue();
        assertThat(openDescriptorsOf(file)).isEqualTo(1);
    }

    private static long openDescriptorsOf(Path file) throws Exception {
        Path real = file.toRealPath();
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).equals(real);
                        } catch (Exception e) {
                            return false; // closed meanwhile, or not a link
                        }
                    })
                    .count();
        }
    }

    /** {@code Transfers.copy(file, channel, options)} on a platform thread of its own; its failure, or null. */
    static CompletableFuture<Throwable> copyOnAPlatformThread(
            Path file, SocketChannel channel, TransferOptions options) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread sender = new Thread(() -> {
            try {
                Transfers.copy(file, (WritableByteChannel) channel, options);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        sender.setDaemon(true);
        sender.start();
        return outcome;
    }

    private Path sparse(long size) throws Exception {
        return sparse(dir.resolve("sparse"), size);
    }

    /** A sparse file of {@code size} bytes at {@code file}, checked to open natively: the native path is on in this run. */
    static Path sparse(Path file, long size) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
        try (OpenFile opened = OpenFile.open(file)) {
            assertThat(opened.openedNatively())
                    .as("the native path is on in this run")
                    .isTrue();
        }
        return file;
    }
}
