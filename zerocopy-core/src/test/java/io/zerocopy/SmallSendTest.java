package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small send on the Java 17 classes, with a {@link FakeNativeFile} as the file opened natively
 * (the verbs reach it only from the Java 22 part, tested in zerocopy-tests): every byte arrives with
 * the prefix in front; it takes only what a JDK socket takes with nothing watching (a blocking verb
 * only a blocking one); a blocking verb's declines, having sent nothing, where it cannot fail as the
 * transfer would; a failure after bytes went out carries the count; and as a {@link Transfer} on a
 * non-blocking socket it moves what the socket takes, closes, fails and ends as a transfer does.
 */
class SmallSendTest {
    private static final Platform LINUX = Platform.of(Platform.OperatingSystem.LINUX, 25, "6.18.44-fc");
    private static final SmallSend DEFAULTS = sender(TransferOptions.defaults());
    private static final byte[] HEAD = "HTTP/1.1 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private byte[] data;
    private Path path;
    private ServerSocketChannel server;
    private SocketChannel socket;
    private SocketChannel peer;

    @BeforeEach
    void connect() throws IOException {
        data = new byte[8_000]; // within one read to a peer on this host (Selection.LOCAL_READ_MAX_BYTES)
        new Random(35).nextBytes(data);
        path = Files.write(dir.resolve("source"), data);
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
    }

    @AfterEach
    void close() throws IOException {
        socket.close();
        peer.close();
        server.close();
    }

    @Test
    void aSmallRegion_goesWithItsPrefix_andEveryByteArrives() throws Exception {
        ByteBuffer head = ByteBuffer.wrap(HEAD);
        CompletableFuture<byte[]> received = receive(HEAD.length + data.length);
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            long sent = copy(FileRegion.of(file, 0, data.length).withPrefix(new ByteBuffer[] {head}));
            assertThat(sent).isEqualTo(HEAD.length + data.length);
            assertThat(file.isOpen()).as("a caller's file stays open").isTrue();
        }
        assertThat(head.hasRemaining())
                .as("the prefix is consumed, as a gathering write consumes it")
                .isFalse();
        byte[] expected = Arrays.copyOf(HEAD, HEAD.length + data.length);
        System.arraycopy(data, 0, expected, HEAD.length, data.length);
        assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(expected);
    }

    @Test
    void aWholeFileOpenedFromAPath_isSentAndClosed() throws Exception {
        CompletableFuture<byte[]> received = receive(data.length);
        FakeNativeFile file = new FakeNativeFile(path);
        assertThat(DEFAULTS.copy(file, path, Long.MAX_VALUE, socket)).isEqualTo(data.length);
        assertThat(file.isOpen()).isFalse();
        assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(data);
    }

    @Test
    void limit_isOneReadsWorth_intoAJdkSocket_withNothingWatching() throws IOException {
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, false, socket, true)).isEqualTo(Selection.LOCAL_READ_MAX_BYTES);
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, true, socket, true)).isEqualTo(PrefixWrite.WHOLE_BODY_BYTES);
        assertThat(DEFAULTS.limit(1000, true, socket, true)).isEqualTo(1000);
        assertThat(DEFAULTS.limit(-1, false, socket, true))
                .as("native may not serve")
                .isZero();
        SmallSend watched = sender(
                TransferOptions.builder().listener(new TransferListener() {}).build());
        assertThat(watched.limit(Long.MAX_VALUE, false, socket, false)).isZero();
        SmallSend paced = sender(TransferOptions.builder().rateLimit(1_000_000).build());
        assertThat(paced.limit(Long.MAX_VALUE, false, socket, false)).isZero();
        SmallSend smallBuffers =
                sender(TransferOptions.builder().bufferSize(8192).build());
        assertThat(smallBuffers.limit(Long.MAX_VALUE, false, socket, true)).isEqualTo(8192);
        assertThat(DEFAULTS.limit(
                        Long.MAX_VALUE, false, Channels.newChannel(new java.io.ByteArrayOutputStream()), false))
                .as("not a JDK socket")
                .isZero();
        socket.configureBlocking(false);
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, false, socket, true))
                .as("non-blocking, for a blocking verb")
                .isZero();
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, false, socket, false))
                .as("non-blocking, for the caller to drive")
                .isEqualTo(Selection.LOCAL_READ_MAX_BYTES);
    }

    @Test
    void aFileShorterThanTheRegion_declines_havingSentNothing() throws IOException {
        ByteBuffer head = ByteBuffer.wrap(HEAD);
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            long sent = copy(FileRegion.of(file, 9_000, 2_000).withPrefix(new ByteBuffer[] {head}));
            assertThat(sent).isEqualTo(SmallSend.DECLINED);
        }
        assertThat(head.remaining()).as("the prefix is left for the transfer").isEqualTo(HEAD.length);
        assertNothingArrived();
    }

    @Test
    void anInterruptBeforeTheFirstWrite_declines_havingSentNothing() throws IOException {
        try (FakeNativeFile file = new FakeNativeFile(path) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                Thread.currentThread().interrupt(); // arrives while the file is read
                return super.read(dst, position);
            }
        }) {
            try {
                assertThat(copy(FileRegion.of(file, 0, data.length))).isEqualTo(SmallSend.DECLINED);
                assertThat(Thread.currentThread().isInterrupted())
                        .as("the flag is left for the transfer to report")
                        .isTrue();
            } finally {
                Thread.interrupted();
            }
        }
        assertThat(socket.isOpen()).isTrue();
        assertNothingArrived();
    }

    @Test
    void aPeerReset_failsAsTheTransferWould_withTheCount() throws IOException {
        peer.setOption(StandardSocketOptions.SO_LINGER, 0);
        peer.close();
        TransferException failure = null;
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            // a reset reaches the sender after its first segment at the latest: a bounded number of tries
            for (int i = 0; i < 100 && failure == null; i++) {
                try {
                    copy(FileRegion.of(file, 0, data.length));
                } catch (TransferException e) {
                    failure = e;
                }
            }
        }
        assertThat(failure).as("a send to a reset peer fails").isNotNull();
        assertThat(failure.getMessage()).startsWith(NativeStrategy.NAME + " failed after ");
        assertThat(failure.bytesTransferred()).isBetween(0L, (long) data.length);
        assertThat(failure.getCause()).isInstanceOf(IOException.class);
    }

    @Test
    void aFileOpenedFromAPath_isClosedWhenTheSendFails_andNamedInTheFailure() throws IOException {
        peer.setOption(StandardSocketOptions.SO_LINGER, 0);
        peer.close();
        TransferException failure = null;
        FakeNativeFile file = null;
        for (int i = 0; i < 100 && failure == null; i++) {
            file = new FakeNativeFile(path);
            try {
                DEFAULTS.copy(file, path, Long.MAX_VALUE, socket);
            } catch (TransferException e) {
                failure = e;
            }
            assertThat(file.isOpen())
                    .as("closed after the send, sent or failed")
                    .isFalse();
        }
        assertThat(failure).as("a send to a reset peer fails").isNotNull();
        assertThat(failure.getMessage()).contains("from " + path);
    }

    @Test
    void aClosedTarget_declines_andTheFileStaysOpenForTheTransfer() throws IOException {
        socket.close();
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            assertThat(DEFAULTS.copy(file, path, Long.MAX_VALUE, socket)).isEqualTo(SmallSend.DECLINED);
            assertThat(file.isOpen()).isTrue();
        }
    }

    @Test
    void opened_onAFullNonBlockingSocket_movesWhatItTakes_untilEveryByteArrives() throws Exception {
        byte[] body = narrowAndLarger();
        ByteBuffer head = ByteBuffer.wrap(HEAD);
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            Transfer transfer = DEFAULTS.open(
                    FileRegion.of(file, 0, body.length).withPrefix(new ByteBuffer[] {head}),
                    Selection.NATIVE_MAX_BYTES,
                    socket);
            assertThat(transfer.count()).isEqualTo(HEAD.length + body.length);
            assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);
            ByteBuffer received = ByteBuffer.allocate(HEAD.length + body.length);
            boolean full = false;
            for (int i = 0; i < 100_000 && !transfer.isDone(); i++) {
                if (transfer.advance() == 0 && !transfer.isDone()) {
                    full = true;
                    assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);
                    peer.read(received); // the sender is full, so this finds bytes
                }
            }
            assertThat(full).as("the socket was full at least once").isTrue();
            assertThat(transfer.isDone()).isTrue();
            assertThat(transfer.bytesTransferred()).isEqualTo(transfer.count());
            assertThat(transfer.interestOps()).isZero();
            assertThat(transfer.advance()).as("done: nothing more").isZero();
            assertThat(transfer.result().bytesTransferred()).isEqualTo(transfer.count());
            assertThat(transfer.result().strategy()).isEqualTo(NativeStrategy.NAME);
            assertThat(transfer.result().reason()).contains("pread");
            assertThat(file.isOpen()).as("a caller's file stays open").isTrue();
            while (received.hasRemaining() && peer.read(received) >= 0) {
                // the rest, written before the transfer was done
            }
            byte[] expected = Arrays.copyOf(HEAD, HEAD.length + body.length);
            System.arraycopy(body, 0, expected, HEAD.length, body.length);
            assertThat(received.array()).isEqualTo(expected);
        }
    }

    @Test
    void opened_advancedOnTwoThreads_andClosedOnAThird_movesEveryByteOnce() throws Exception {
        byte[] body = narrowAndLarger((int) Selection.LOCAL_READ_MAX_BYTES, 1);
        ExecutorService[] threads = {
            Executors.newSingleThreadExecutor(),
            Executors.newSingleThreadExecutor(),
            Executors.newSingleThreadExecutor()
        };
        FakeNativeFile file = new FakeNativeFile(path);
        try {
            Transfer transfer = threads[2]
                    .submit(() -> DEFAULTS.open(file, path, Long.MAX_VALUE, socket))
                    .get(30, TimeUnit.SECONDS);
            CompletableFuture<byte[]> received = receive(body.length);
            for (int i = 0; i < 100_000 && !transfer.isDone(); i++) {
                threads[i % 2].submit(transfer::advance).get(30, TimeUnit.SECONDS);
            }
            assertThat(transfer.isDone()).isTrue();
            threads[2].submit(transfer::close).get(30, TimeUnit.SECONDS);
            assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(body);
            assertThat(transfer.bytesTransferred()).isEqualTo(body.length);
            assertThat(file.isOpen()).as("closed with the transfer").isFalse();
        } finally {
            for (ExecutorService thread : threads) {
                thread.shutdownNow();
            }
        }
    }

    @Test
    void opened_closedBeforeItIsDone_abandonsIt_andClosesAFileFromAPath() throws Exception {
        narrowAndLarger((int) Selection.LOCAL_READ_MAX_BYTES, 1);
        FakeNativeFile file = new FakeNativeFile(path);
        Transfer transfer = DEFAULTS.open(file, path, Long.MAX_VALUE, socket);
        long moved = transfer.advance();
        assertThat(transfer.isDone()).as("the socket is too narrow for it all").isFalse();
        transfer.close();
        assertThat(file.isOpen()).isFalse();
        assertThat(transfer.bytesTransferred()).isEqualTo(moved);
        assertThat(transfer.interestOps()).isZero();
        assertThatThrownBy(transfer::advance)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed after " + moved + " bytes");
        assertThatThrownBy(transfer::result).isInstanceOf(IllegalStateException.class);
        transfer.close(); // again: nothing
    }

    @Test
    void opened_peerResets_failsWithTheCount_andThenRefusesToAdvance() throws Exception {
        socket.configureBlocking(false);
        peer.setOption(StandardSocketOptions.SO_LINGER, 0);
        peer.close();
        FakeNativeFile file = new FakeNativeFile(path);
        Transfer transfer = DEFAULTS.open(file, path, Long.MAX_VALUE, socket);
        TransferException failure = null;
        // a reset reaches the sender after its first segment at the latest: a bounded number of tries
        for (int i = 0; i < 100 && failure == null && !transfer.isDone(); i++) {
            try {
                transfer.advance();
            } catch (TransferException e) {
                failure = e;
            }
        }
        assertThat(failure).as("a send to a reset peer fails").isNotNull();
        assertThat(failure.getMessage()).startsWith(NativeStrategy.NAME + " failed after ");
        assertThat(failure.bytesTransferred()).isEqualTo(transfer.bytesTransferred());
        assertThat(file.isOpen()).isFalse();
        assertThatThrownBy(transfer::advance)
                .isInstanceOf(IllegalStateException.class)
                .hasCause(failure);
    }

    @Test
    void opened_interrupted_failsAsTheTransferDoes_havingSentNothing() throws Exception {
        socket.configureBlocking(false);
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            Transfer transfer = DEFAULTS.open(FileRegion.of(file, 0, data.length), Long.MAX_VALUE, socket);
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(transfer::advance)
                        .isInstanceOf(TransferException.class)
                        .hasMessageStartingWith("interrupted after 0 bytes")
                        .hasCauseInstanceOf(InterruptedIOException.class);
                assertThat(Thread.currentThread().isInterrupted())
                        .as("the flag stays set")
                        .isTrue();
            } finally {
                Thread.interrupted();
            }
        }
        assertNothingArrived();
    }

    /**
     * Reconnects through sockets whose buffers hold far less than a small send, and writes a larger
     * source file, whose bytes it returns.
     */
    private byte[] narrowAndLarger() throws IOException {
        return narrowAndLarger(60_000, 4096);
    }

    /**
     * A non-blocking socket with buffers of {@code buffers} bytes (the kernel's least for 1), and
     * a file of {@code size} bytes that does not fit them.
     */
    private byte[] narrowAndLarger(int size, int buffers) throws IOException {
        close();
        server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_RCVBUF, buffers); // before the accept, for the peer
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket = SocketChannel.open();
        socket.setOption(StandardSocketOptions.SO_SNDBUF, buffers);
        socket.connect(server.getLocalAddress());
        peer = server.accept();
        socket.configureBlocking(false);
        byte[] body = new byte[size];
        new Random(3535).nextBytes(body);
        Files.write(path, body);
        return body;
    }

    private static SmallSend sender(TransferOptions options) {
        return new SmallSend(options, LINUX, new Selection(List.of(), null, Set.of()));
    }

    /** A blocking verb's small send of {@code region} into {@code socket}. */
    private long copy(FileRegion region) throws IOException {
        return DEFAULTS.copy(region, Selection.NATIVE_MAX_BYTES, socket);
    }

    private void assertNothingArrived() throws IOException {
        socket.shutdownOutput();
        assertThat(peer.read(ByteBuffer.allocate(1))).isEqualTo(-1);
    }

    private CompletableFuture<byte[]> receive(int count) {
        return CompletableFuture.supplyAsync(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(count);
            try {
                while (buffer.hasRemaining() && peer.read(buffer) >= 0) {
                    // until the count or the end of the stream
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return Arrays.copyOf(buffer.array(), buffer.position());
        });
    }
}
