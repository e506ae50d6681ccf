package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-to-socket rows of the default policy when the caller is a virtual thread: the same rows
 * as on a platform thread ({@link SocketPeerSelectionTest}). Java 21 and later; the build leaves
 * this class out before that.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadSelectionTest {
    private static final Platform LINUX = Platform.of(Platform.OperatingSystem.LINUX, 21, "6.8.0");

    @TempDir
    Path dir;

    private LoopbackPair pair;
    private FileChannel file;
    private ExecutorService virtual;

    @BeforeEach
    void setUp() throws Exception {
        pair = LoopbackPair.open();
        file = FileChannel.open(Files.write(dir.resolve("source"), new byte[1024]), StandardOpenOption.READ);
        virtual = (ExecutorService)
                Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    @AfterEach
    void tearDown() throws IOException {
        virtual.shutdown();
        file.close();
        pair.close();
    }

    private <T> T onVirtualThread(Supplier<T> task) throws Exception {
        return CompletableFuture.supplyAsync(task, virtual).get(10, TimeUnit.SECONDS);
    }

    @Test
    void facts_currentThreadIsVirtualOnAVirtualThread() throws Exception {
        assertThat(onVirtualThread(Platform::currentThreadIsVirtual)).isTrue();
    }

    @Test
    void choose_loopbackPeerLargeFile_isSendfileToo() throws Exception {
        // the facts are found on the thread that transfers, as a verb call finds them
        Choice choice = onVirtualThread(() -> Selections.choose(
                Selections.on(
                        LINUX,
                        TransferRequest.builder()
                                .source(file, ChannelKind.FILE)
                                .slice(0, 8L << 20)
                                .target(pair.sender, ChannelKind.SOCKET)
                                .build()),
                null,
                Set.of(),
                null,
                null));

        assertThat(choice.strategy.name()).isEqualTo(TransferToStrategy.NAME);
        assertThat(choice.reason()).contains("sendfile(2)", "peer on this host", "parks the thread");
    }

    @Test
    void choose_peerOnAnotherHost_isSendfileToo() throws Exception {
        TransferFacts request = Selections.on(
                LINUX,
                TransferRequest.builder()
                        .source(file, ChannelKind.FILE)
                        .slice(0, 1024)
                        .target(new NowhereSocket(), ChannelKind.SOCKET)
                        .build());

        Choice choice = onVirtualThread(() -> Selections.choose(request, null, Set.of(), null, null));

        assertThat(choice.strategy.name()).isEqualTo(TransferToStrategy.NAME);
        assertThat(choice.reason()).contains("sendfile(2)", "another host");
    }
}
