package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerocopy.Platform.OperatingSystem;
import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStrategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A strategy registered through {@code META-INF/services} ({@link CountingTestStrategy}, in this
 * module's test resources): found, forceable by name, and considered before the built-in table.
 */
class RegisteredStrategyTest {

    private static final Platform LINUX = Platform.of(OperatingSystem.LINUX, 17, "6.18.44-fc");

    @TempDir
    Path dir;

    private Path file(int size) throws IOException {
        byte[] content = new byte[size];
        for (int i = 0; i < size; i++) {
            content[i] = (byte) (i * 7 + 3);
        }
        return Files.write(dir.resolve("source-" + size), content);
    }

    @Test
    void all_containsBuiltInsThenRegistered() {
        assertThat(Strategies.all()).containsKey(CountingTestStrategy.NAME);
        assertThat(Strategies.all().get(CountingTestStrategy.NAME)).isInstanceOf(CountingTestStrategy.class);
        assertThat(Strategies.all().keySet())
                .startsWith("transferTo", "transferFrom", "mmap", "buffered")
                .contains(CountingTestStrategy.NAME);
        assertThat(Strategies.registered()).extracting(TransferStrategy::name).contains(CountingTestStrategy.NAME);
        assertThat(Strategies.registered())
                .extracting(TransferStrategy::name)
                .doesNotContain("transferTo", "transferFrom", "mmap", "buffered");
        assertThat(Strategies.require(CountingTestStrategy.NAME, "strategy"))
                .isSameAs(Strategies.all().get(CountingTestStrategy.NAME));
    }

    /**
     * The providers listed before {@link CountingTestStrategy} break the rules ({@link BrokenStrategies}):
     * before, the first made every use of the library fail with {@code ExceptionInInitializerError}.
     */
    @Test
    void brokenProviders_areLeftOut_andTheOnesAfterThemStillLoad() {
        assertThat(Strategies.registered()).singleElement().isInstanceOf(CountingTestStrategy.class);
        assertThat(Strategies.all().keySet()).doesNotContain("failsToConstruct", "padded ", "with,comma");
    }

    @Test
    void supportsReturningNull_isTheStrategysBug_saidWithItsName() {
        TransferStrategy nullAnswer = new BrokenStrategies.Broken() {
            @Override
            public String name() {
                return "nullAnswer";
            }

            @Override
            public Support supports(TransferRequest request) {
                return null;
            }
        };
        TransferRequest request = TransferRequest.builder()
                .source(Channels.newChannel(new ByteArrayInputStream(new byte[10])), ChannelKind.OTHER)
                .target(Channels.newChannel(new ByteArrayOutputStream()), ChannelKind.OTHER)
                .build();

        assertThatThrownBy(() -> new Selection(List.of(nullAnswer), null, Set.of())
                        .choose(TransferFacts.of(request), null, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nullAnswer.supports returned null");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void copy_forcedByName() throws IOException {
        Path source = file(10_000);
        TransferListener listener = ListenerCalls.mockListener();
        CountingTestStrategy.MarkerTarget target = new CountingTestStrategy.MarkerTarget();
        int opened = CountingTestStrategy.OPENED.get();
        int closed = CountingTestStrategy.CLOSED.get();

        long moved = Transfers.copy(
                source,
                target,
                TransferOptions.builder()
                        .strategy(CountingTestStrategy.NAME)
                        .listener(listener)
                        .build());

        assertThat(moved).isEqualTo(10_000);
        assertThat(target.bytes()).isEqualTo(Files.readAllBytes(source));
        TransferResult result = ListenerCalls.verifyCompleted(listener, CountingTestStrategy.NAME, 10_000, 10_000);
        assertThat(result.reason()).startsWith("forced");
        assertThat(CountingTestStrategy.OPENED.get() - opened).isEqualTo(1);
        assertThat(CountingTestStrategy.CLOSED.get() - closed).isEqualTo(1);
    }

    @Test
    void copy_forcedByNameOnTargetItDeclines() throws IOException {
        Path source = file(100);
        TransferOptions forced =
                TransferOptions.builder().strategy(CountingTestStrategy.NAME).build();

        assertThatThrownBy(() -> Transfers.copy(source, dir.resolve("out"), forced))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("strategy: " + CountingTestStrategy.NAME + " ")
                .hasMessageContaining("not a MarkerTarget");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void copy_automaticSelectionPicksRegisteredForItsTarget() throws IOException {
        // 2 MiB from a file to an unknown channel: the table alone would map it
        Path source = file(2 * 1024 * 1024);
        TransferListener listener = ListenerCalls.mockListener();
        CountingTestStrategy.MarkerTarget target = new CountingTestStrategy.MarkerTarget();

        long moved = Transfers.copy(
                source, target, TransferOptions.builder().listener(listener).build());

        assertThat(moved).isEqualTo(2 * 1024 * 1024);
        assertThat(target.bytes()).isEqualTo(Files.readAllBytes(source));
        TransferResult result =
                ListenerCalls.verifyCompleted(listener, CountingTestStrategy.NAME, 2 * 1024 * 1024, 2 * 1024 * 1024);
        assertThat(result.reason()).startsWith("registered strategy").contains("MarkerTarget");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void copy_excludedRegisteredFallsBackToTable() throws IOException {
        Path source = file(1000);
        TransferListener listener = ListenerCalls.mockListener();
        CountingTestStrategy.MarkerTarget target = new CountingTestStrategy.MarkerTarget();

        Transfers.copy(
                source,
                target,
                TransferOptions.builder()
                        .exclude(CountingTestStrategy.NAME)
                        .listener(listener)
                        .build());

        ListenerCalls.verifyCompleted(listener, BufferedStrategy.NAME, 1000, 1000);
        assertThat(target.bytes()).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void choose_registeredBeforeTable() throws IOException {
        // declared a SOCKET on Linux, where the table would use sendfile (the marker is no peer on this host):
        // the registered one still goes first
        try (FileChannel file = FileChannel.open(file(10), StandardOpenOption.READ)) {
            TransferFacts request = Selections.on(
                    LINUX,
                    TransferRequest.builder()
                            .source(file, ChannelKind.FILE)
                            .slice(0, 10)
                            .target(new CountingTestStrategy.MarkerTarget(), ChannelKind.SOCKET)
                            .build());
            assertThat(Selections.choose(request, null, Set.of(), null, null)
                            .strategy
                            .name())
                    .isEqualTo(CountingTestStrategy.NAME);
            assertThat(Selections.choose(request, null, Set.of(CountingTestStrategy.NAME), null, null)
                            .strategy
                            .name())
                    .isEqualTo("transferTo");
            assertThat(Selections.choose(request, null, Set.of(), null, CountingTestStrategy.NAME)
                            .strategy
                            .name())
                    .isEqualTo("transferTo");
            // a forced built-in is not overridden by a registered strategy
            assertThat(Selections.choose(request, "mmap", Set.of(), null, null)
                            .strategy
                            .name())
                    .isEqualTo("mmap");
        }
    }

    @Test
    void supports_declinesEveryOrdinaryRequest() throws IOException {
        CountingTestStrategy strategy = (CountingTestStrategy) Strategies.all().get(CountingTestStrategy.NAME);
        Pipe pipe = Pipe.open();
        try (FileChannel source = FileChannel.open(file(10), StandardOpenOption.READ);
                FileChannel target =
                        FileChannel.open(dir.resolve("t"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ReadableByteChannel plainSource = Channels.newChannel(InputStream.nullInputStream());
            WritableByteChannel[] targets = {
                target, pipe.sink(), new StreamChannels.Output(java.io.OutputStream.nullOutputStream())
            };
            for (ChannelKind sourceKind : ChannelKind.values()) {
                for (WritableByteChannel t : targets) {
                    for (ChannelKind targetKind : ChannelKind.values()) {
                        if (targetKind == ChannelKind.FILE && t != target) {
                            continue;
                        }
                        TransferRequest.Builder b = TransferRequest.builder().target(t, targetKind);
                        if (sourceKind == ChannelKind.FILE) {
                            b.source(source, ChannelKind.FILE).slice(0, 10);
                        } else {
                            b.source(plainSource, sourceKind);
                        }
                        TransferRequest request = b.build();
                        assertThat(strategy.supports(request).supported())
                                .as("%s", request)
                                .isFalse();
                    }
                }
            }
        } finally {
            pipe.sink().close();
            pipe.source().close();
        }
    }

    @Test
    void strategyOption_unknownNameListsKnownOnes() {
        assertThatThrownBy(() -> TransferOptions.builder().strategy("no-such"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("strategy: no-such (expected one of: ")
                .hasMessageContaining("transferTo")
                .hasMessageContaining("transferFrom")
                .hasMessageContaining("mmap")
                .hasMessageContaining("buffered")
                .hasMessageContaining(CountingTestStrategy.NAME);
    }
}
