package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.Platform.OperatingSystem;
import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The buffered strategy's write size: whole loopback segments to a loopback TCP peer on Linux, the
 * requested size everywhere else.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BufferedStrategyTest {
    private static final Platform LINUX = Platform.of(OperatingSystem.LINUX, 17, "6.18.44-fc");
    private static final Platform MACOS = Platform.of(OperatingSystem.MACOS, 21, "14.5");
    private static final int MSS = Peers.LOOPBACK_MSS_IPV4;
    /** The source's size: more than the largest buffer asked for, so that the count never caps it. */
    private static final long SOURCE_BYTES = 4 << 20;

    @TempDir
    Path dir;

    private FileChannel source;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void openSource() throws IOException {
        Path file = dir.resolve("source.bin");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(SOURCE_BYTES);
        }
        source = FileChannel.open(file, StandardOpenOption.READ);
        open.add(source);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @ParameterizedTest(name = "asked {0} -> {1}")
    @CsvSource({
        "262144, 261932", // the default: 4 segments of 65,483
        "65483, 65483", // exactly one segment
        "1048576, 1047728", // 16 segments
        "65482, 65482", // below one segment: unchanged
        "4096, 4096"
    }) // the classic loop's size: unchanged
    void writeSize_loopbackIpv4PeerOnLinux_isWholeSegmentsWhenAtLeastOne(int asked, int expected) throws IOException {
        TransferFacts request = toSocket(connectedTo("127.0.0.1"), LINUX, asked);

        assertThat(BufferedStrategy.writeSize(request)).isEqualTo(expected);
        try (TransferStep step = BufferedStrategy.INSTANCE.open(request)) {
            assertThat(step.toString()).isEqualTo("buffered(direct " + expected + ")");
        }
    }

    @Test
    void supports_roundedSize_saysWhatItUsesAndWhy() throws IOException {
        TransferFacts request = toSocket(connectedTo("127.0.0.1"), LINUX, 256 * 1024);

        assertThat(BufferedStrategy.INSTANCE.supports(request).reason())
                .startsWith("a direct buffer of 261932 bytes")
                .contains("4 loopback segments of 65483 bytes", "262144");
    }

    @Test
    void defaultSelectionWithoutTransferTo_fileToLoopbackSocketOnLinux_reasonNamesTheSegments() throws IOException {
        TransferFacts request = toSocket(connectedTo("127.0.0.1"), LINUX, TransferOptions.DEFAULT_BUFFER_SIZE);

        Choice choice = Selections.choose(List.of(), request, null, Set.of(TransferToStrategy.NAME), null, null);

        assertThat(choice.strategy.name()).isEqualTo(BufferedStrategy.NAME);
        assertThat(choice.reason()).contains("buffer of 261932 bytes", "4 loopback segments");
    }

    @Test
    void bufferLargerThanTheDirectMemoryBudget_reasonSaysSoNotThatItIsSpent() throws IOException {
        int asked = (int) Math.min(1 << 30, DirectBuffers.SHARED.budget() + 1);
        List<TransferResult> results = new ArrayList<>();
        TransferOptions options = TransferOptions.builder()
                .bufferSize(asked)
                .listener(new TransferListener() {
                    @Override
                    public void onComplete(TransferResult result) {
                        results.add(result);
                    }
                })
                .build();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        byte[] ten = "0123456789".getBytes(StandardCharsets.US_ASCII);

        Transfers.copy(Channels.newChannel(new ByteArrayInputStream(ten)), Channels.newChannel(sink), options);

        assertThat(sink.toByteArray()).isEqualTo(ten);
        assertThat(results.get(0).reason())
                .contains("a heap buffer of", "is smaller than the " + asked + " asked for")
                .doesNotContain("is spent");
    }

    @Test
    void writeSize_loopbackPeerOnMacOs_isUnchanged() throws IOException {
        TransferFacts request = toSocket(connectedTo("127.0.0.1"), MACOS, 256 * 1024);

        assertThat(BufferedStrategy.writeSize(request)).isEqualTo(256 * 1024);
        assertThat(BufferedStrategy.INSTANCE.supports(request).reason()).isEqualTo("a direct buffer of 262144 bytes");
    }

    @Test
    void writeSize_unconnectedSocket_isUnchanged() throws IOException {
        SocketChannel unconnected = SocketChannel.open();
        open.add(unconnected);

        assertThat(BufferedStrategy.writeSize(toSocket(unconnected, LINUX, 256 * 1024)))
                .isEqualTo(256 * 1024);
    }

    @Test
    void writeSize_closedSocket_isUnchanged() throws IOException {
        SocketChannel closed = connectedTo("127.0.0.1");
        closed.close();

        assertThat(BufferedStrategy.writeSize(toSocket(closed, LINUX, 256 * 1024)))
                .isEqualTo(256 * 1024);
    }

    @Test
    void writeSize_unixDomainSocket_isUnchanged() throws IOException {
        Path address = dir.resolve("peer.sock");
        ServerSocketChannel server =
                ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(address));
        open.add(server);
        SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(address));
        open.add(client);
        open.add(server.accept());

        assertThat(BufferedStrategy.writeSize(toSocket(client, LINUX, 256 * 1024)))
                .isEqualTo(256 * 1024);
    }

    @Test
    void writeSize_targetsThatAreNotSockets_areUnchanged() throws IOException {
        FileChannel file =
                FileChannel.open(dir.resolve("target.bin"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        open.add(file);
        WritableByteChannel wrapper = Channels.newChannel(new ByteArrayOutputStream());

        assertThat(BufferedStrategy.writeSize(request(file, ChannelKind.FILE, LINUX, 256 * 1024)))
                .isEqualTo(256 * 1024);
        assertThat(BufferedStrategy.writeSize(request(wrapper, ChannelKind.OTHER, LINUX, 256 * 1024)))
                .isEqualTo(256 * 1024);
    }

    @Test
    void loopbackMss_ofAddresses() throws IOException {
        InetAddress remote = InetAddress.getByAddress(new byte[] {10, (byte) 254, 77, 2});
        InetAddress remote6 = InetAddress.getByName("2001:db8::1");

        assertThat(Peers.of(new InetSocketAddress(remote, 9), LINUX).segmentSize)
                .isZero();
        assertThat(Peers.of(new InetSocketAddress(remote6, 9), LINUX).segmentSize)
                .isZero();
        assertThat(Peers.of((java.net.SocketAddress) null, LINUX).segmentSize).isZero();
        assertThat(Peers.of(InetSocketAddress.createUnresolved("localhost", 9), LINUX).segmentSize)
                .isZero();
        assertThat(Peers.of(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 9), LINUX).segmentSize)
                .isEqualTo(Peers.LOOPBACK_MSS_IPV4);
        assertThat(Peers.of(new InetSocketAddress(InetAddress.getByName("::1"), 9), LINUX).segmentSize)
                .isEqualTo(Peers.LOOPBACK_MSS_IPV6);
    }

    /** End to end on this machine: the bytes arrive intact whatever the write size. */
    @Test
    void copy_fileToLoopbackSocket_deliversEveryByteAndReportsTheWriteSize() throws Exception {
        byte[] data = new byte[3 * MSS * 4 + 12_345];
        new Random(42).nextBytes(data);
        Path file = dir.resolve("data.bin");
        Files.write(file, data);
        List<TransferResult> results = new ArrayList<>();
        TransferListener listener = new TransferListener() {
            @Override
            public void onComplete(TransferResult result) {
                results.add(result);
            }
        };
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        open.add(server);
        CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
            try (SocketChannel peer = server.accept()) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                while (peer.read(buffer) >= 0) {
                    out.write(buffer.array(), 0, buffer.position());
                    buffer.clear();
                }
                return out.toByteArray();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            Transfers.copy(
                    file,
                    client,
                    TransferOptions.builder()
                            .strategy(BufferedStrategy.NAME)
                            .listener(listener)
                            .build());
        }

        assertThat(received.get(20, TimeUnit.SECONDS)).isEqualTo(data);
        assertThat(results).hasSize(1);
        if (Platform.current().os() == OperatingSystem.LINUX) {
            assertThat(results.get(0).reason()).contains("buffer of 261932 bytes");
        } else {
            assertThat(results.get(0).reason()).contains("buffer of 262144 bytes");
        }
    }

    private SocketChannel connectedTo(String host) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(host, 0));
        open.add(server);
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        open.add(client);
        open.add(server.accept());
        return client;
    }

    private TransferFacts toSocket(SocketChannel target, Platform platform, int bufferSize) {
        return request(target, ChannelKind.SOCKET, platform, bufferSize);
    }

    private TransferFacts request(WritableByteChannel target, ChannelKind kind, Platform platform, int bufferSize) {
        return TestFacts.of(
                TransferRequest.builder()
                        .source(source, ChannelKind.FILE)
                        .slice(0, SOURCE_BYTES)
                        .target(target, kind)
                        .build(),
                TransferOptions.builder().bufferSize(bufferSize).build(),
                platform,
                false);
    }
}
