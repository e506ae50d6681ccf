package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerocopy.Platform.OperatingSystem;
import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default selection table, with platforms injected, plus forcing and excluding strategies by
 * options and by system properties. The table below is the specification; the README shows the same.
 */
class SelectionTest {

    /** Largest count that still goes to the buffered copy when there is no kernel path. */
    private static final long SMALL = Selection.MMAP_MIN_BYTES - 1;
    /** Smallest count that is mapped when there is no kernel path. */
    private static final long LARGE = Selection.MMAP_MIN_BYTES;

    /** The platforms the table is written for. */
    enum Machine {
        LINUX_6_JDK17(Platform.of(OperatingSystem.LINUX, 17, "6.18.44-fc")),
        LINUX_6_JDK25(Platform.of(OperatingSystem.LINUX, 25, "6.18.44-fc")),
        LINUX_4_4_JDK21(Platform.of(OperatingSystem.LINUX, 21, "4.4.0")),
        LINUX_2_6_32_JDK17(Platform.of(OperatingSystem.LINUX, 17, "2.6.32")),
        MACOS_JDK21(Platform.of(OperatingSystem.MACOS, 21, "14.5")),
        WINDOWS_JDK21(Platform.of(OperatingSystem.WINDOWS, 21, "10.0")),
        WINDOWS_FAST_JDK21(Platforms.withFastFileTransfer(Platform.of(OperatingSystem.WINDOWS, 21, "10.0"), true));

        final Platform platform;

        Machine(Platform platform) {
            this.platform = platform;
        }
    }

    /**
     * The strategy for a FILE source, per platform and target kind, for a small (below
     * {@code MMAP_MIN_BYTES}) and a large count, with a blocking and a non-blocking target. A
     * {@code transferTo} cell names, in brackets, the system call its reason must mention. A FILE
     * target cannot be non-blocking: "n/a". Every source that is not a FILE gets {@code buffered},
     * whatever the platform, target and count (see {@link #nonFileSourceCases()}).
     */
    private static final String FILE_SOURCE_TABLE = String.join(
            "\n",
            // machine           target   blocking small            blocking large            non-blocking small
            // non-blocking large
            "LINUX_6_JDK17       FILE     transferTo[sendfile]        transferTo[sendfile]        n/a                      n/a",
            "LINUX_6_JDK17       SOCKET   transferTo[sendfile]        transferTo[sendfile]        transferTo[sendfile]     transferTo[sendfile]",
            "LINUX_6_JDK17       PIPE     buffered                    mmap                        transferTo[sendfile]     transferTo[sendfile]",
            "LINUX_6_JDK17       OTHER    buffered                    buffered                    buffered                 buffered",
            "LINUX_6_JDK25       FILE     transferTo[copy_file_range] transferTo[copy_file_range] n/a                      n/a",
            "LINUX_6_JDK25       SOCKET   transferTo[sendfile]        transferTo[sendfile]        transferTo[sendfile]     transferTo[sendfile]",
            "LINUX_6_JDK25       PIPE     buffered                    mmap                        buffered                 mmap",
            "LINUX_6_JDK25       OTHER    buffered                    buffered                    buffered                 buffered",
            "LINUX_4_4_JDK21     FILE     transferTo[sendfile]        transferTo[sendfile]        n/a                      n/a",
            "LINUX_4_4_JDK21     SOCKET   transferTo[sendfile]        transferTo[sendfile]        transferTo[sendfile]     transferTo[sendfile]",
            "LINUX_4_4_JDK21     PIPE     buffered                    mmap                        transferTo[sendfile]     transferTo[sendfile]",
            "LINUX_4_4_JDK21     OTHER    buffered                    buffered                    buffered                 buffered",
            "LINUX_2_6_32_JDK17  FILE     buffered                    mmap                        n/a                      n/a",
            "LINUX_2_6_32_JDK17  SOCKET   transferTo[sendfile]        transferTo[sendfile]        transferTo[sendfile]     transferTo[sendfile]",
            "LINUX_2_6_32_JDK17  PIPE     buffered                    mmap                        buffered                 mmap",
            "LINUX_2_6_32_JDK17  OTHER    buffered                    buffered                    buffered                 buffered",
            "MACOS_JDK21         FILE     buffered                    mmap                        n/a                      n/a",
            "MACOS_JDK21         SOCKET   transferTo[sendfile]        transferTo[sendfile]        transferTo[sendfile]     transferTo[sendfile]",
            "MACOS_JDK21         PIPE     buffered                    mmap                        buffered                 mmap",
            "MACOS_JDK21         OTHER    buffered                    buffered                    buffered                 buffered",
            "WINDOWS_JDK21       FILE     buffered                    mmap                        n/a                      n/a",
            "WINDOWS_JDK21       SOCKET   buffered                    mmap                        buffered                 mmap",
            "WINDOWS_JDK21       PIPE     buffered                    mmap                        buffered                 mmap",
            "WINDOWS_JDK21       OTHER    buffered                    buffered                    buffered                 buffered",
            "WINDOWS_FAST_JDK21  FILE     buffered                    mmap                        n/a                      n/a",
            "WINDOWS_FAST_JDK21  SOCKET   transferTo[TransmitFile]    transferTo[TransmitFile]    buffered                 mmap",
            "WINDOWS_FAST_JDK21  PIPE     buffered                    mmap                        buffered                 mmap",
            "WINDOWS_FAST_JDK21  OTHER    buffered                    buffered                    buffered                 buffered");

    @TempDir
    static Path dir;

    private static FileChannel fileSource;
    private static FileChannel fileTarget;
    private static Pipe pipe;
    private static SocketChannel nonBlockingSocket;

    private static final ReadableByteChannel PLAIN_SOURCE = new PlainSource();
    private static final WritableByteChannel PLAIN_TARGET = new PlainTarget();

    @BeforeAll
    static void openChannels() throws IOException {
        // a byte to map: the mmap rows look whether the file maps at all (sysfs files may not)
        fileSource = FileChannel.open(Files.write(dir.resolve("source"), new byte[1]), StandardOpenOption.READ);
        fileTarget = FileChannel.open(Files.createFile(dir.resolve("target")), StandardOpenOption.WRITE);
        pipe = Pipe.open();
        pipe.sink().configureBlocking(false);
        nonBlockingSocket = SocketChannel.open();
        nonBlockingSocket.configureBlocking(false);
    }

    @AfterAll
    static void closeChannels() throws IOException {
        fileSource.close();
        fileTarget.close();
        pipe.sink().close();
        pipe.source().close();
        nonBlockingSocket.close();
    }

    /** A target of this kind, non-blocking if asked (a real JDK channel then, since only those can be). */
    private static WritableByteChannel target(ChannelKind kind, boolean nonBlocking) {
        if (kind == ChannelKind.FILE) {
            return fileTarget;
        }
        if (!nonBlocking) {
            return PLAIN_TARGET;
        }
        return kind == ChannelKind.SOCKET ? nonBlockingSocket : pipe.sink();
    }

    private static TransferFacts fileRequest(Machine machine, ChannelKind targetKind, boolean nonBlocking, long count) {
        return Selections.on(
                machine.platform,
                TransferRequest.builder()
                        .source(fileSource, ChannelKind.FILE)
                        .slice(0, count)
                        .target(target(targetKind, nonBlocking), targetKind)
                        .build());
    }

    private static TransferFacts streamRequest(
            Machine machine, ChannelKind sourceKind, ChannelKind targetKind, boolean nonBlocking) {
        return Selections.on(
                machine.platform,
                TransferRequest.builder()
                        .source(PLAIN_SOURCE, sourceKind)
                        .target(target(targetKind, nonBlocking), targetKind)
                        .build());
    }

    private Choice choose(TransferFacts request) {
        return Selections.choose(request, null, Set.of(), null, null);
    }

    // ---------------------------------------------------------------- the table

    static Stream<Arguments> fileSourceCases() {
        List<Arguments> cases = new ArrayList<>();
        for (String line : FILE_SOURCE_TABLE.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] cells = line.trim().split("\\s+");
            Machine machine = Machine.valueOf(cells[0]);
            ChannelKind target = ChannelKind.valueOf(cells[1]);
            String[] expected = {cells[2], cells[3], cells[4], cells[5]};
            for (int i = 0; i < 4; i++) {
                if (!expected[i].equals("n/a")) {
                    boolean nonBlocking = i >= 2;
                    String size = i % 2 == 0 ? "small" : "large";
                    cases.add(Arguments.of(machine, target, nonBlocking, size, expected[i]));
                }
            }
        }
        return cases.stream();
    }

    @Test
    void fileSourceTable_coversEveryPlatformAndTarget() {
        assertThat(FILE_SOURCE_TABLE.split("\n")).hasSize(Machine.values().length * ChannelKind.values().length);
        assertThat(fileSourceCases().map(a -> List.of(a.get()).subList(0, 4)).distinct())
                .hasSize(Machine.values().length * (ChannelKind.values().length * 4 - 2));
    }

    @ParameterizedTest(name = "{0}: FILE -> {1}, nonBlocking={2}, {3}: {4}")
    @MethodSource("fileSourceCases")
    void choose_fileSource(Machine machine, ChannelKind targetKind, boolean nonBlocking, String size, String expected) {
        TransferFacts request = fileRequest(machine, targetKind, nonBlocking, size.equals("small") ? SMALL : LARGE);
        assertThat(request.targetNonBlocking()).isEqualTo(nonBlocking);

        Choice choice = choose(request);

        String strategy = expected.contains("[") ? expected.substring(0, expected.indexOf('[')) : expected;
        assertThat(choice.strategy.name()).as("strategy for %s", request).isEqualTo(strategy);
        assertThat(choice.reason()).isNotBlank();
        if (expected.contains("[")) {
            String syscall = expected.substring(expected.indexOf('[') + 1, expected.indexOf(']'));
            assertThat(choice.reason()).as("reason").contains(syscall);
        }
    }

    static Stream<Arguments> nonFileSourceCases() {
        List<Arguments> cases = new ArrayList<>();
        for (Machine machine : Machine.values()) {
            for (ChannelKind source : ChannelKind.values()) {
                if (source == ChannelKind.FILE) {
                    continue;
                }
                for (ChannelKind target : ChannelKind.values()) {
                    cases.add(Arguments.of(machine, source, target, false));
                    if (target != ChannelKind.FILE) {
                        cases.add(Arguments.of(machine, source, target, true));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}, nonBlocking={3}: buffered")
    @MethodSource("nonFileSourceCases")
    void choose_nonFileSourceIsBuffered(
            Machine machine, ChannelKind sourceKind, ChannelKind targetKind, boolean nonBlocking) {
        TransferFacts request = streamRequest(machine, sourceKind, targetKind, nonBlocking);

        Choice choice = choose(request);

        assertThat(choice.strategy.name()).isEqualTo("buffered");
        assertThat(choice.reason()).contains("from a source of kind " + sourceKind); // never "from a OTHER source"
    }

    @ParameterizedTest(name = "count {0}")
    @ValueSource(longs = {0, 1, 4096, 4 * 1024 * 1024 - 1})
    void choose_belowMappingThresholdIsBuffered(long count) {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK25, ChannelKind.PIPE, false, count);

        Choice choice = choose(request);

        assertThat(choice.strategy.name()).isEqualTo("buffered");
        assertThat(choice.reason()).contains(Long.toString(count));
    }

    @ParameterizedTest(name = "count {0}")
    @ValueSource(longs = {4 * 1024 * 1024, 4 * 1024 * 1024 + 1, 3L << 30, (4L << 30) + 1, Long.MAX_VALUE})
    void choose_atOrAboveMappingThresholdIsMapped(long count) {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK25, ChannelKind.PIPE, false, count);

        Choice choice = choose(request);

        assertThat(choice.strategy.name()).isEqualTo("mmap");
        assertThat(choice.reason()).contains(Long.toString(count));
    }

    @ParameterizedTest(name = "count {0}")
    @ValueSource(longs = {4096, 4 * 1024 * 1024, 3L << 30})
    void choose_fileToWrapperChannelIsBufferedAtAnySize(long count) {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.OTHER, false, count);

        Choice choice = choose(request);

        assertThat(choice.strategy.name()).isEqualTo("buffered");
        assertThat(choice.reason()).contains("not a JDK channel");
    }

    @Test
    void mappingThreshold_isFourMebibytes() {
        assertThat(Selection.MMAP_MIN_BYTES).isEqualTo(4 * 1024 * 1024);
    }

    @Test
    void choose_fileToSocketOnLinuxStillTakesSendfileWhenAsked() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.SOCKET, false, LARGE);

        assertThat(Selections.choose(request, "transferTo", Set.of(), null, null)
                        .reason())
                .startsWith("forced")
                .contains("sendfile");
        assertThat(Selections.choose(request, null, Set.of(), "transferTo", null)
                        .strategy
                        .name())
                .isEqualTo("transferTo");
        Choice withoutBuffered = Selections.choose(request, null, Set.of("buffered"), null, null);
        assertThat(withoutBuffered.strategy.name()).isEqualTo("transferTo");
        assertThat(withoutBuffered.reason()).contains("sendfile");
    }

    @Test
    void choose_transferToReasonNamesSyscallAndTarget() {
        Choice choice = choose(fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE));

        assertThat(choice.strategy).isSameAs(TransferToStrategy.INSTANCE);
        assertThat(choice.reason()).contains("sendfile", "FILE");
        assertThat(choice.toString()).startsWith("transferTo (").contains("sendfile");
    }

    // ---------------------------------------------------------------- forcing and excluding by options

    @ParameterizedTest(name = "forced {0}")
    @ValueSource(strings = {"transferTo", "mmap", "buffered"})
    void choose_forcedStrategyWinsWhenItSupportsThePair(String forced) {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        Choice choice = Selections.choose(request, forced, Set.of(), null, null);

        assertThat(choice.strategy.name()).isEqualTo(forced);
        assertThat(choice.reason()).startsWith("forced");
    }

    @Test
    void choose_forcedTransferFromIntoAFile() {
        TransferFacts fromFile = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);
        Choice fromSocket = Selections.choose(
                streamRequest(Machine.LINUX_6_JDK17, ChannelKind.SOCKET, ChannelKind.FILE, false),
                "transferFrom",
                Set.of(),
                null,
                null);

        assertThat(fromSocket.strategy.name()).isEqualTo("transferFrom");
        // a file source would be read at its own, shared position: declined before a byte moves
        assertThatThrownBy(() -> Selections.choose(fromFile, "transferFrom", Set.of(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strategy: transferFrom")
                .hasMessageContaining("transferTo takes the same kernel path");
    }

    @Test
    void choose_forcedTransferToWithoutKernelPath() {
        // transferTo serves any file source; without a kernel path it is the JDK's own copy, so it
        // is never chosen automatically but may be forced
        TransferFacts request = fileRequest(Machine.MACOS_JDK21, ChannelKind.FILE, false, LARGE);

        assertThat(choose(request).strategy.name()).isEqualTo("mmap");
        assertThat(Selections.choose(request, "transferTo", Set.of(), null, null)
                        .strategy
                        .name())
                .isEqualTo("transferTo");
    }

    static Stream<Arguments> unservablePairs() {
        return Stream.of(
                Arguments.of("transferFrom", fileRequest(Machine.LINUX_6_JDK17, ChannelKind.SOCKET, false, LARGE)),
                Arguments.of("transferFrom", fileRequest(Machine.LINUX_6_JDK17, ChannelKind.OTHER, true, SMALL)),
                Arguments.of("mmap", streamRequest(Machine.LINUX_6_JDK17, ChannelKind.SOCKET, ChannelKind.FILE, false)),
                Arguments.of(
                        "transferTo", streamRequest(Machine.MACOS_JDK21, ChannelKind.OTHER, ChannelKind.OTHER, false)),
                Arguments.of(
                        "transferTo",
                        streamRequest(Machine.LINUX_6_JDK25, ChannelKind.PIPE, ChannelKind.SOCKET, true)));
    }

    @ParameterizedTest(name = "{0} for {1}")
    @MethodSource("unservablePairs")
    void choose_forcedStrategyThatCannotServeThePair(String forced, TransferFacts request) {
        assertThatThrownBy(() -> Selections.choose(request, forced, Set.of(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("strategy: " + forced + " ")
                .hasMessageContaining(request.sourceKind().toString());
    }

    @Test
    void choose_forcedTransferFromRejectsNonBlockingSource() throws IOException {
        Pipe p = Pipe.open();
        try {
            p.source().configureBlocking(false);
            TransferFacts request = Selections.on(
                    Machine.LINUX_6_JDK17.platform,
                    TransferRequest.builder()
                            .source(p.source(), ChannelKind.PIPE)
                            .target(fileTarget, ChannelKind.FILE)
                            .build());

            assertThatThrownBy(() -> Selections.choose(request, "transferFrom", Set.of(), null, null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("strategy: transferFrom ")
                    .hasMessageContaining("non-blocking");
            assertThat(choose(request).strategy.name()).isEqualTo("buffered");
        } finally {
            p.source().close();
            p.sink().close();
        }
    }

    @Test
    void choose_excludedStrategyIsSkipped() {
        TransferFacts large = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);
        TransferFacts small = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, SMALL);

        assertThat(Selections.choose(large, null, Set.of("transferTo"), null, null)
                        .strategy
                        .name())
                .isEqualTo("mmap");
        assertThat(Selections.choose(small, null, Set.of("transferTo"), null, null)
                        .strategy
                        .name())
                .isEqualTo("buffered");
        assertThat(Selections.choose(large, null, Set.of("transferTo", "mmap"), null, null)
                        .strategy
                        .name())
                .isEqualTo("buffered");
        // excluding one that would not have been chosen changes nothing
        assertThat(Selections.choose(large, null, Set.of("transferFrom", "buffered"), null, null)
                        .strategy
                        .name())
                .isEqualTo("transferTo");
    }

    @Test
    void choose_everythingExcluded() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);
        Set<String> all = Set.of("transferTo", "transferFrom", "mmap", "buffered");

        assertThatThrownBy(() -> Selections.choose(request, null, all, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("excluded: ")
                .hasMessageContaining("buffered");
    }

    @Test
    void choose_onlyServingStrategyExcluded() {
        TransferFacts request = streamRequest(Machine.LINUX_6_JDK17, ChannelKind.OTHER, ChannelKind.OTHER, false);

        assertThatThrownBy(() -> Selections.choose(request, null, Set.of("buffered"), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("excluded: [buffered]");
    }

    /**
     * An exclusion takes strategies away, not the transfer: where the table's rows for a pair are
     * all excluded, a strategy that can still serve it runs, and says why.
     */
    @ParameterizedTest(name = "{0}, FILE -> {1}, {2} bytes, excluding {3}: {4}")
    @MethodSource("lastResortCases")
    void choose_tableExcluded_anotherServingStrategyRuns(
            Machine machine, ChannelKind targetKind, long count, Set<String> excluded, String expected) {
        TransferFacts request = fileRequest(machine, targetKind, false, count);

        Choice choice = Selections.choose(request, null, excluded, null, null);

        assertThat(choice.strategy.name()).isEqualTo(expected);
        assertThat(choice.reason()).contains("excluded");
        assertThat(Selections.choose(request, null, Set.of(), null, null)
                        .strategy
                        .name())
                .as("the table's own choice, which the exclusion takes away")
                .isIn(excluded);
    }

    static Stream<Arguments> lastResortCases() {
        return Stream.of(
                Arguments.of(Machine.LINUX_6_JDK17, ChannelKind.OTHER, SMALL, Set.of("buffered"), "transferTo"),
                Arguments.of(Machine.LINUX_6_JDK25, ChannelKind.OTHER, LARGE, Set.of("buffered"), "transferTo"),
                Arguments.of(Machine.MACOS_JDK21, ChannelKind.PIPE, SMALL, Set.of("buffered"), "transferTo"),
                Arguments.of(Machine.LINUX_6_JDK17, ChannelKind.FILE, SMALL, Set.of("buffered", "transferTo"), "mmap"),
                Arguments.of(
                        Machine.LINUX_6_JDK25, ChannelKind.OTHER, SMALL, Set.of("buffered", "transferTo"), "mmap"));
    }

    // ---------------------------------------------------------------- system properties (as parameters)

    @Test
    void choose_propertyForcesWhereSupported() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        Choice choice = Selections.choose(request, null, Set.of(), "mmap", null);

        assertThat(choice.strategy.name()).isEqualTo("mmap");
        assertThat(choice.reason()).contains(TransferOptions.STRATEGY_PROPERTY);
        assertThat(Selections.choose(request, null, Set.of(), "  buffered ", null)
                        .strategy
                        .name())
                .isEqualTo("buffered");
    }

    /**
     * Socket to socket is buffered: splice is only ever forced (docs/splice.md). These unit tests load
     * the base classes (the Java 22 part is only in the packaged jar), where it also declines.
     */
    @Test
    void choose_socketToSocket_buffered() {
        TransferFacts request = streamRequest(Machine.LINUX_6_JDK25, ChannelKind.SOCKET, ChannelKind.SOCKET, false);

        Choice choice = choose(request);

        assertThat(choice.strategy.name()).isEqualTo("buffered");
        assertThat(SpliceStrategy.INSTANCE.supports(request).reason()).contains("Java 22");
    }

    @Test
    void choose_propertyFallsThroughWhereNotSupported() {
        TransferFacts socketSource =
                streamRequest(Machine.LINUX_6_JDK17, ChannelKind.SOCKET, ChannelKind.SOCKET, false);
        TransferFacts fileToFile = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThat(Selections.choose(socketSource, null, Set.of(), "mmap", null)
                        .strategy
                        .name())
                .isEqualTo("buffered");
        assertThat(Selections.choose(fileToFile, null, Set.of(), "transferFrom", null)
                        .strategy
                        .name())
                .isEqualTo("transferTo");
    }

    @Test
    void choose_blankPropertiesAreIgnored() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThat(Selections.choose(request, null, Set.of(), "", "").strategy.name())
                .isEqualTo("transferTo");
        assertThat(Selections.choose(request, null, Set.of(), " ", "  ")
                        .strategy
                        .name())
                .isEqualTo("transferTo");
    }

    @Test
    void choose_propertyTakesPrecedenceOverForcedOption() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThat(Selections.choose(request, "buffered", Set.of(), "mmap", null)
                        .strategy
                        .name())
                .isEqualTo("mmap");
        // where the property's strategy cannot serve, the option's forced one still applies
        assertThat(Selections.choose(request, "buffered", Set.of(), "transferFrom", null)
                        .strategy
                        .name())
                .isEqualTo("buffered");
    }

    @Test
    void choose_excludePropertyBeatsForcedOption() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        Choice choice = Selections.choose(request, "transferTo", Set.of(), null, "transferTo");

        assertThat(choice.strategy.name()).isEqualTo("mmap");
        assertThat(choice.reason()).doesNotStartWith("forced");
    }

    @Test
    void choose_excludePropertyBeatsForcingProperty() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThat(Selections.choose(request, null, Set.of(), "mmap", "mmap")
                        .strategy
                        .name())
                .isEqualTo("transferTo");
    }

    @Test
    void choose_excludePropertyIsACommaSeparatedList() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThat(Selections.choose(request, null, Set.of(), null, "transferTo, mmap")
                        .strategy
                        .name())
                .isEqualTo("buffered");
        assertThat(Selections.choose(request, null, Set.of("transferTo"), null, "mmap")
                        .strategy
                        .name())
                .isEqualTo("buffered");
        assertThat(Selections.choose(request, null, Set.of(), null, ",transferTo,,mmap,")
                        .strategy
                        .name())
                .as("empty names are skipped wherever they stand")
                .isEqualTo("buffered");
    }

    @Test
    void choose_reasonSaysWhenTransferToWasExcluded() {
        TransferFacts large = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);
        TransferFacts small = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, SMALL);

        assertThat(Selections.choose(large, null, Set.of("transferTo"), null, null)
                        .reason())
                .contains("transferTo is excluded")
                .doesNotContain("no kernel path");
        assertThat(Selections.choose(small, null, Set.of("transferTo"), null, null)
                        .reason())
                .contains("transferTo is excluded")
                .contains("below");
        assertThat(Selections.choose(large, null, Set.of("transferTo", "mmap"), null, null)
                        .reason())
                .contains("transferTo is excluded")
                .contains("mmap is excluded");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"nope", "transferTo,nope"})
    void choose_unknownNameInExcludeProperty(String value) {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThatThrownBy(() -> Selections.choose(request, null, Set.of(), null, value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TransferOptions.EXCLUDE_PROPERTY)
                .hasMessageContaining(value.substring(value.indexOf(',') + 1))
                .hasMessageContaining("transferTo, transferFrom, mmap, buffered");
    }

    @Test
    void choose_unknownNameInStrategyProperty() {
        TransferFacts request = fileRequest(Machine.LINUX_6_JDK17, ChannelKind.FILE, false, LARGE);

        assertThatThrownBy(() -> Selections.choose(request, null, Set.of(), "nope", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TransferOptions.STRATEGY_PROPERTY)
                .hasMessageContaining("nope");
    }

    // ---------------------------------------------------------------- real system properties, end to end

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void transfers_honourRealSystemProperties() throws IOException {
        byte[] content = new byte[(int) Selection.MMAP_MIN_BYTES + 4321];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + (i >>> 13));
        }
        Path source = Files.write(dir.resolve("e2e-source"), content);
        List<String> started = new CopyOnWriteArrayList<>();
        List<TransferResult> completed = new CopyOnWriteArrayList<>();
        TransferListener listener = new TransferListener() {
            @Override
            public void onStart(String strategy, long expectedBytes) {
                started.add(strategy);
            }

            @Override
            public void onComplete(TransferResult result) {
                completed.add(result);
            }
        };
        TransferOptions forcingBuffered = TransferOptions.builder()
                .strategy("buffered")
                .listener(listener)
                .build();
        String oldStrategy = System.getProperty(TransferOptions.STRATEGY_PROPERTY);
        String oldExclude = System.getProperty(TransferOptions.EXCLUDE_PROPERTY);
        try {
            // the strategy property wins over the options' forced strategy
            System.setProperty(TransferOptions.STRATEGY_PROPERTY, "mmap");
            assertThat(Transfers.copy(source, dir.resolve("copy1"), forcingBuffered))
                    .isEqualTo(content.length);
            System.clearProperty(TransferOptions.STRATEGY_PROPERTY);

            // the exclude property beats the options' forced strategy; file to file then maps (large
            // file, transferTo excluded too) on every platform
            System.setProperty(TransferOptions.EXCLUDE_PROPERTY, "buffered,transferTo");
            assertThat(Transfers.copy(source, dir.resolve("copy2"), forcingBuffered))
                    .isEqualTo(content.length);
        } finally {
            restore(TransferOptions.STRATEGY_PROPERTY, oldStrategy);
            restore(TransferOptions.EXCLUDE_PROPERTY, oldExclude);
        }
        // and with the properties gone, the forced option applies again
        assertThat(Transfers.copy(source, dir.resolve("copy3"), forcingBuffered))
                .isEqualTo(content.length);

        assertThat(started).containsExactly("mmap", "mmap", "buffered");
        assertThat(completed).extracting(TransferResult::strategy).containsExactly("mmap", "mmap", "buffered");
        assertThat(completed.get(0).reason()).contains(TransferOptions.STRATEGY_PROPERTY);
        assertThat(completed.get(1).reason()).doesNotContain("forced");
        for (String name : new String[] {"copy1", "copy2", "copy3"}) {
            assertThat(Files.readAllBytes(dir.resolve(name))).as(name).isEqualTo(content);
        }
    }

    /** With buffered excluded, a small file still reaches a stream and a user's channel, whole. */
    @Test
    void copy_bufferedExcluded_fileReachesStreamAndUsersChannel() throws IOException {
        byte[] content = new byte[100_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 7 + (i >>> 11));
        }
        Path source = Files.write(dir.resolve("small-for-last-resort"), content);
        TransferOptions noBuffered =
                TransferOptions.builder().exclude("buffered").build();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        ByteArrayOutputStream viaChannel = new ByteArrayOutputStream();

        assertThat(Transfers.copy(source, stream, noBuffered)).isEqualTo(content.length);
        assertThat(Transfers.copy(source, Channels.newChannel(viaChannel), noBuffered))
                .isEqualTo(content.length);

        assertThat(stream.toByteArray()).isEqualTo(content);
        assertThat(viaChannel.toByteArray()).isEqualTo(content);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    // ---------------------------------------------------------------- channels that do no I/O

    /** A source that is not a JDK channel and is never read here. */
    private static final class PlainSource implements ReadableByteChannel {
        @Override
        public int read(ByteBuffer dst) {
            throw new AssertionError("selection must not read");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}

        @Override
        public String toString() {
            return "PlainSource";
        }
    }

    /** A blocking target that is not a JDK channel and is never written here. */
    private static final class PlainTarget implements WritableByteChannel {
        @Override
        public int write(ByteBuffer src) {
            throw new AssertionError("selection must not write");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}

        @Override
        public String toString() {
            return "PlainTarget";
        }
    }
}
