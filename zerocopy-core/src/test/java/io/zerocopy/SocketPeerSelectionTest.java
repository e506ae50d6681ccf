package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Platform;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file-to-socket rows of the default policy on Linux, with real sockets: where the peer is and who calls. */
class SocketPeerSelectionTest {
    private static final Platform LINUX = Platform.of(Platform.OperatingSystem.LINUX, 21, "6.8.0");

    @TempDir
    Path dir;

    private final Selection selection = new Selection(Strategies.registered());
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

    private Selection.Choice choose(boolean directIo) {
        TransferRequest request = TransferRequest.builder()
                .source(file, ChannelKind.FILE).slice(0, 1024).sourceDirectIo(directIo)
                .target(client, ChannelKind.SOCKET)
                .platform(LINUX)
                .build();
        return selection.choose(request, null, Set.of(), null, null);
    }

    @Test
    void choose_blockingLoopbackFromPlatformThread_isBuffered() {
        assumeTrue(DirectBuffers.SHARED.canLend(TransferOptions.DEFAULT_BUFFER_SIZE), "the shared budget has room");

        Selection.Choice choice = choose(false);

        assertThat(choice.strategy.name()).isEqualTo(BufferedStrategy.NAME);
        assertThat(choice.reason).contains("blocking socket on this host", "platform thread", "docs/scale.md");
    }

    @Test
    void choose_nonBlockingLoopback_isSendfile() throws IOException {
        client.configureBlocking(false);

        Selection.Choice choice = choose(false);

        assertThat(choice.strategy.name()).isEqualTo(TransferToStrategy.NAME);
        assertThat(choice.reason).contains("sendfile(2)", "non-blocking");
    }

    @Test
    void choose_loopbackFromVirtualThread_isSendfile() throws Exception {
        Optional<ExecutorService> virtual = virtualThreads();
        assumeTrue(virtual.isPresent(), "virtual threads need Java 21; this is " + Runtime.version());
        ExecutorService executor = virtual.get();
        try {
            Selection.Choice choice = CompletableFuture.supplyAsync(() -> choose(false), executor)
                    .get(10, TimeUnit.SECONDS);

            assertThat(choice.strategy.name()).isEqualTo(TransferToStrategy.NAME);
            assertThat(choice.reason).contains("sendfile(2)", "virtual thread", "docs/scale.md");
        } finally {
            executor.shutdown();
        }
    }

    @Test
    void choose_directIoSource_isMmapToASocket() {
        Selection.Choice choice = choose(true);

        // sendfile fails with EINVAL at unaligned offsets of an O_DIRECT file (DirectIoSourceTest)
        assertThat(choice.strategy.name()).isEqualTo(MappedStrategy.NAME);
        assertThat(choice.reason).contains("direct I/O");
    }

    @Test
    void peers_loopbackAndOwnAddressesAreThisHostDocumentationRangeIsNot() throws IOException {
        assertThat(Peers.onThisHost(client)).isTrue();
        assertThat(Peers.onThisHost(new InetSocketAddress("127.0.0.2", 80))).isTrue();
        assertThat(Peers.onThisHost(new InetSocketAddress("::1", 80))).isTrue();
        // TEST-NET-1 (RFC 5737): never an address of this machine
        assertThat(Peers.onThisHost(new InetSocketAddress("192.0.2.1", 80))).isFalse();
        assertThat(Peers.onThisHost(InetSocketAddress.createUnresolved("example.org", 80))).isFalse();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress own : Collections.list(nic.getInetAddresses())) {
                assertThat(Peers.onThisHost(new InetSocketAddress(own, 80))).as("own address %s", own).isTrue();
            }
        }
    }

    @Test
    void peers_callerIsVirtualOnlyOnVirtualThreads() throws Exception {
        assertThat(Peers.callerIsVirtual()).isFalse();
        Optional<ExecutorService> virtual = virtualThreads();
        assumeTrue(virtual.isPresent(), "virtual threads need Java 21; this is " + Runtime.version());
        try {
            assertThat(CompletableFuture.supplyAsync(Peers::callerIsVirtual, virtual.get()).get(10, TimeUnit.SECONDS))
                    .isTrue();
        } finally {
            virtual.get().shutdown();
        }
    }

    static Optional<ExecutorService> virtualThreads() {
        try {
            return Optional.of((ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null));
        } catch (ReflectiveOperationException e) {
            return Optional.empty();
        }
    }
}
