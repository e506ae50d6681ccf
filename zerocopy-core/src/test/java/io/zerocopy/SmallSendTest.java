package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small send on the Java 17 classes, with a {@link FakeNativeFile} as the file opened natively
 * (the verbs reach it only from the Java 22 part, tested in zerocopy-tests): every byte arrives with
 * the prefix in front; it takes only what a blocking JDK socket takes with nothing watching; it
 * declines, having sent nothing, where it cannot fail as the transfer would; and a failure after
 * bytes went out carries the count.
 */
class SmallSendTest {
    private static final Platform LINUX = Platform.of(Platform.OperatingSystem.LINUX, 25, "6.18.44-fc");
    private static final SmallSend DEFAULTS = new SmallSend(TransferOptions.defaults(), LINUX);
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
        data = new byte[10_000];
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
            long sent = DEFAULTS.region(
                    FileRegion.of(file, 0, data.length).withPrefix(new ByteBuffer[] {head}),
                    Selection.NATIVE_MAX_BYTES,
                    socket);
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
        assertThat(DEFAULTS.wholeFile(file, path, Long.MAX_VALUE, socket)).isEqualTo(data.length);
        assertThat(file.isOpen()).isFalse();
        assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(data);
    }

    @Test
    void limit_isOneReadsWorth_intoABlockingJdkSocket_withNothingWatching() throws IOException {
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, false, socket)).isEqualTo(Selection.NATIVE_MAX_BYTES);
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, true, socket)).isEqualTo(PrefixWrite.WHOLE_BODY_BYTES);
        assertThat(DEFAULTS.limit(1000, true, socket)).isEqualTo(1000);
        assertThat(DEFAULTS.limit(-1, false, socket)).as("native may not serve").isZero();
        SmallSend watched = new SmallSend(
                TransferOptions.builder().listener(new TransferListener() {}).build(), LINUX);
        assertThat(watched.limit(Long.MAX_VALUE, false, socket)).isZero();
        SmallSend paced =
                new SmallSend(TransferOptions.builder().rateLimit(1_000_000).build(), LINUX);
        assertThat(paced.limit(Long.MAX_VALUE, false, socket)).isZero();
        SmallSend smallBuffers =
                new SmallSend(TransferOptions.builder().bufferSize(8192).build(), LINUX);
        assertThat(smallBuffers.limit(Long.MAX_VALUE, false, socket)).isEqualTo(8192);
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, false, Channels.newChannel(new java.io.ByteArrayOutputStream())))
                .as("not a JDK socket")
                .isZero();
        socket.configureBlocking(false);
        assertThat(DEFAULTS.limit(Long.MAX_VALUE, false, socket))
                .as("non-blocking")
                .isZero();
    }

    @Test
    void aFileShorterThanTheRegion_declines_havingSentNothing() throws IOException {
        ByteBuffer head = ByteBuffer.wrap(HEAD);
        try (FakeNativeFile file = new FakeNativeFile(path)) {
            long sent = DEFAULTS.region(
                    FileRegion.of(file, 9_000, 2_000).withPrefix(new ByteBuffer[] {head}),
                    Selection.NATIVE_MAX_BYTES,
                    socket);
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
                assertThat(DEFAULTS.region(FileRegion.of(file, 0, data.length), Selection.NATIVE_MAX_BYTES, socket))
                        .isEqualTo(SmallSend.DECLINED);
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
                    DEFAULTS.region(FileRegion.of(file, 0, data.length), Selection.NATIVE_MAX_BYTES, socket);
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
                DEFAULTS.wholeFile(file, path, Long.MAX_VALUE, socket);
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
            assertThat(DEFAULTS.wholeFile(file, path, Long.MAX_VALUE, socket)).isEqualTo(SmallSend.DECLINED);
            assertThat(file.isOpen()).isTrue();
        }
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
