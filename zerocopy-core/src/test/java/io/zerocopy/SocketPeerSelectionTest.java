package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The file-to-socket rows of the default policy on Linux, with real sockets: where the peer is. The
 * same rows from a virtual thread: {@link VirtualThreadSelectionTest}.
 */
class SocketPeerSelectionTest {
    private static final Platform LINUX = Platform.of(Platform.OperatingSystem.LINUX, 21, "6.8.0");

    @TempDir
    Path dir;

    private ServerSocketChannel server;
    private SocketChannel client;
    private FileChannel file;

    @BeforeEach
    void connect() throws IOException {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SocketChannel.open(server.getLocalAddress());
        file = FileChannel.open(Files.write(dir.resolve("source"), new byte[1024]), StandardOpenOption.READ);
    }

    @AfterEach
    void close() throws IOException {
        file.close();
        client.close();
        server.close();
    }

    /** A file well over the largest that a peer on this host gets by one read and one write. */
    private static final long LARGE = 8L << 20;

    private Choice choose(boolean directIo) {
        return choose(directIo, LARGE);
    }

    private Choice choose(boolean directIo, long count) {
        return choose(LINUX, directIo, count);
    }

    private Choice choose(Platform platform, boolean directIo, long count) {
        return choose(platform, directIo, count, client);
    }

    private Choice choose(Platform platform, boolean directIo, long count, SocketChannel target) {
        TransferFacts request = TestFacts.of(
                TransferRequest.builder()
                        .source(file, ChannelKind.FILE)
                        .slice(0, count)
                        .target(target, ChannelKind.SOCKET)
                        .build(),
                TransferOptions.defaults(),
                platform,
                directIo);
        return Selections.choose(request, null, Set.of(), null, null);
    }

    /**
     * The choices on {@code platform} for the largest file read ahead to the blocking socket, then
     * for one byte with the socket non-blocking.
     */
    private List<Choice> smallestBothModes(Platform platform) throws IOException {
        Choice blocking = choose(platform, false, BufferedStrategy.LOCAL_READ_MAX_BYTES);
        client.configureBlocking(false);
        return List.of(blocking, choose(platform, false, 1));
    }

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {17, 19, 20, 25})
    void choose_loopbackPeerSmallestFiles_isOneReadAndOneWriteOnEveryJdk(int jdk) throws IOException {
        assumeTrue(
                Pools.canLend(DirectBuffers.SHARED, TransferOptions.DEFAULT_BUFFER_SIZE), "the shared budget has room");
        for (Choice choice : smallestBothModes(Platform.of(Platform.OperatingSystem.LINUX, jdk, "6.8.0"))) {
            assertThat(choice.strategy.name()).isEqualTo(BufferedStrategy.NAME);
            assertThat(choice.reason())
                    .contains("peer on this host", "which is also the check")
                    .doesNotContain("docs/");
            choice.release();
        }
    }

    @Test
    void choose_loopbackPeerOverTheReadAheadSize_isSendfileBlockingOrNot() throws IOException {
        Choice blocking = choose(false, BufferedStrategy.LOCAL_READ_MAX_BYTES + 1);
        client.configureBlocking(false);
        Choice nonBlocking = choose(false, LARGE);

        for (Choice choice : List.of(blocking, nonBlocking)) {
            assertThat(choice.strategy.name()).isEqualTo(TransferToStrategy.NAME);
            assertThat(choice.reason())
                    .contains("sendfile(2)", "peer on this host", "CPU per byte")
                    .doesNotContain("docs/");
        }
    }

    @Test
    void choose_loopbackPeerWithoutTransferTo_isBuffered() {
        assumeTrue(
                Pools.canLend(DirectBuffers.SHARED, TransferOptions.DEFAULT_BUFFER_SIZE), "the shared budget has room");
        TransferFacts request = Selections.on(
                LINUX,
                TransferRequest.builder()
                        .source(file, ChannelKind.FILE)
                        .slice(0, LARGE)
                        .target(client, ChannelKind.SOCKET)
                        .build());

        Choice choice = Selections.choose(request, null, Set.of(TransferToStrategy.NAME), null, null);

        assertThat(choice.strategy.name()).isEqualTo(BufferedStrategy.NAME);
        assertThat(choice.reason()).contains("transferTo is excluded");
    }

    @Test
    void choose_peerOnAnotherHost_isSendfile() {
        // a socket that is not connected anywhere on this host: the same rule as a peer elsewhere
        TransferFacts request = Selections.on(
                LINUX,
                TransferRequest.builder()
                        .source(file, ChannelKind.FILE)
                        .slice(0, 1024)
                        .target(new NowhereSocket(), ChannelKind.SOCKET)
                        .build());

        Choice choice = Selections.choose(request, null, Set.of(), null, null);

        assertThat(choice.strategy.name()).isEqualTo(TransferToStrategy.NAME);
        assertThat(choice.reason()).contains("sendfile(2)", "another host");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {1, BufferedStrategy.LOCAL_READ_MAX_BYTES, 64 * 1024, LARGE})
    void choose_peerOnAnotherHostWithoutTransferTo_saysAnotherHost(long count) {
        assumeTrue(
                Pools.canLend(DirectBuffers.SHARED, TransferOptions.DEFAULT_BUFFER_SIZE), "the shared budget has room");
        TransferFacts request = Selections.on(
                Platform.of(Platform.OperatingSystem.LINUX, 25, "6.8.0"),
                TransferRequest.builder()
                        .source(file, ChannelKind.FILE)
                        .slice(0, count)
                        .target(new NowhereSocket(), ChannelKind.SOCKET)
                        .build());

        Choice choice = Selections.choose(request, null, Set.of(TransferToStrategy.NAME), null, null);

        assertThat(choice.strategy.name()).isEqualTo(BufferedStrategy.NAME);
        assertThat(choice.reason())
                .contains("another host", "transferTo is excluded")
                .doesNotContain("this host");
    }

    @Test
    void facts_currentThreadIsNotVirtualOnAPlatformThread() {
        assertThat(Platform.currentThreadIsVirtual()).isFalse();
    }

    @Test
    void choose_directIoSource_isMmapToASocket() {
        Choice choice = choose(true);

        // sendfile fails with EINVAL at unaligned offsets of an O_DIRECT file (DirectIoSourceTest)
        assertThat(choice.strategy.name()).isEqualTo(MappedStrategy.NAME);
        assertThat(choice.reason()).contains("direct I/O");
    }

    @Test
    void choose_unixDomainSocket_isSendfileAtEverySizeToAPeerOnThisHost() throws IOException {
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(dir.resolve("peer.sock"));
        try (ServerSocketChannel unixServer =
                        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(address);
                SocketChannel unixClient = SocketChannel.open(address)) {
            Peers.Peer peer = Peers.of(unixClient, LINUX);
            assertThat(peer).isEqualTo(Peers.Peer.UNIX_DOMAIN);
            assertThat(peer.onThisHost).isTrue();
            assertThat(peer.segmentSize).isZero();

            for (long count : new long[] {1, BufferedStrategy.LOCAL_READ_MAX_BYTES, LARGE}) {
                Choice choice = choose(LINUX, false, count, unixClient);
                assertThat(choice.strategy.name()).as("%s bytes", count).isEqualTo(TransferToStrategy.NAME);
                assertThat(choice.reason()).contains("peer on this host").doesNotContain("another host");
                assertThat(NativeStrategy.readMax(ChannelKind.SOCKET, peer)).isZero();
            }
        }
    }

    @Test
    void peers_loopbackAndOwnAddressesAreThisHostDocumentationRangeIsNot() throws IOException {
        assertThat(Peers.of(client, Platform.current()).onThisHost).isTrue();
        assertThat(Peers.onThisHost(new InetSocketAddress("127.0.0.2", 80))).isTrue();
        assertThat(Peers.onThisHost(new InetSocketAddress("::1", 80))).isTrue();
        // TEST-NET-1 (RFC 5737): never an address of this machine
        assertThat(Peers.onThisHost(new InetSocketAddress("192.0.2.1", 80))).isFalse();
        assertThat(Peers.onThisHost(InetSocketAddress.createUnresolved("example.org", 80)))
                .isFalse();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress own : Collections.list(nic.getInetAddresses())) {
                assertThat(Peers.onThisHost(new InetSocketAddress(own, 80)))
                        .as("own address %s", own)
                        .isTrue();
            }
        }
    }
}
