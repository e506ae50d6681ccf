package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README's "Which strategy runs" table says what {@link Selection} chooses on Linux, row by
 * row: each row names the strategy the table picks for its pair, on JDK 17 and 25 alike, and the
 * size rule for a small file to this host states the table's own threshold. A change to either
 * side that leaves the other behind fails here.
 */
class ReadmeStrategyTableTest {
    private static final Path README = Path.of("..", "README.md");
    private static final List<Platform> LINUX = List.of(
            Platform.of(Platform.OperatingSystem.LINUX, 17, "6.18.44-fc"),
            Platform.of(Platform.OperatingSystem.LINUX, 25, "6.18.44-fc"));
    private static final WritableByteChannel SINK = Channels.newChannel(OutputStream.nullOutputStream());
    private static final ReadableByteChannel EMPTY = Channels.newChannel(InputStream.nullInputStream());
    private static final Pattern STRATEGY = Pattern.compile("`([A-Za-z]+)`");
    private static final String NATIVE_ROW = "small file from a path or an `OpenFile`, Java 22+ with native access";

    private static Path dir;
    private static FileChannel file;

    @BeforeAll
    static void openFile() throws IOException {
        dir = Files.createTempDirectory("readme-table");
        file = FileChannel.open(
                Files.write(dir.resolve("source"), new byte[1]), StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    @AfterAll
    static void closeFile() throws IOException {
        file.close();
        Files.deleteIfExists(dir.resolve("source"));
        Files.deleteIfExists(dir);
    }

    @Test
    void readmeTable_namesWhatSelectionChooses() throws IOException {
        Map<String, String> rows = readmeRows();
        assertThat(rows.keySet())
                .as("the README table's rows")
                .containsExactly(
                        "file → socket, peer on another host",
                        "file → socket, peer on this host",
                        "file → file",
                        "socket → socket",
                        "anything else",
                        NATIVE_ROW);
        long small = BufferedStrategy.LOCAL_READ_MAX_BYTES;
        for (Platform linux : LINUX) {
            assertNames(
                    rows,
                    "file → socket, peer on another host",
                    chosen(fileTo(ChannelKind.SOCKET, small, Peers.Peer.ELSEWHERE, linux)),
                    0);
            assertNames(
                    rows,
                    "file → socket, peer on this host",
                    chosen(fileTo(ChannelKind.SOCKET, small, Peers.Peer.THIS_HOST_IPV4, linux)),
                    -1);
            assertNames(
                    rows,
                    "file → socket, peer on this host",
                    chosen(fileTo(ChannelKind.SOCKET, small + 1, Peers.Peer.THIS_HOST_IPV4, linux)),
                    -1);
            assertNames(rows, "file → file", chosen(fileTo(ChannelKind.FILE, 1 << 20, Peers.Peer.ELSEWHERE, linux)), 0);
            assertNames(rows, "socket → socket", chosen(streamTo(ChannelKind.SOCKET, ChannelKind.SOCKET, linux)), 0);
            assertNames(rows, "anything else", chosen(streamTo(ChannelKind.OTHER, ChannelKind.OTHER, linux)), 0);
        }
        try (NativeFile opened = new FakeNativeFile(dir.resolve("source"))) {
            for (Platform linux : LINUX) {
                assertNames(rows, NATIVE_ROW, chosen(nativeTo(opened, small, linux)), 0);
            }
        }
        assertThat(rows.get(NATIVE_ROW))
                .as("the native rule, in the table's own thresholds")
                .contains("up to " + BufferedStrategy.LOCAL_READ_MAX_BYTES / 1024 + " KiB to a peer on this host ("
                        + PrefixWrite.WHOLE_BODY_BYTES / 1024 + " KiB with a prefix)");
        assertThat(rows.get("file → socket, peer on this host"))
                .as("the small-file rule, in the table's own threshold and on every JDK")
                .contains("up to " + small / 1024 + " KiB")
                .doesNotContain("JDK 20");
    }

    /** Whether {@code row} names {@code strategy}: first of its strategies ({@code at} 0), or anywhere (-1). */
    private static void assertNames(Map<String, String> rows, String row, String strategy, int at) {
        List<String> named = strategiesIn(rows.get(row));
        if (at == 0) {
            assertThat(named).as("the row '%s' names first", row).first().isEqualTo(strategy);
        } else {
            assertThat(named).as("the row '%s' names", row).contains(strategy);
        }
    }

    private static List<String> strategiesIn(String text) {
        Matcher m = STRATEGY.matcher(text);
        List<String> names = new java.util.ArrayList<>();
        while (m.find()) {
            if (Strategies.all().containsKey(m.group(1))) {
                names.add(m.group(1));
            }
        }
        // a row that says "one read + one write" names the buffered strategy in words
        if (text.contains("one read + one write")) {
            names.add(0, BufferedStrategy.NAME);
        }
        return names;
    }

    private static String chosen(TransferFacts facts) {
        return Selections.choose(facts, null, Set.of(), null, null).strategy.name();
    }

    private static TransferFacts fileTo(ChannelKind kind, long count, Peers.Peer peer, Platform platform)
            throws IOException {
        TransferRequest request = TransferRequest.builder()
                .source(file, ChannelKind.FILE)
                .slice(0, count)
                .target(kind == ChannelKind.FILE ? file : SINK, kind)
                .build();
        return new TransferFacts(request, peer, TransferOptions.defaults(), platform, false, 0, 0);
    }

    private static TransferFacts nativeTo(NativeFile opened, long count, Platform platform) throws IOException {
        TransferRequest request = TransferRequest.builder()
                .source(new FileSliceChannel(opened, 0, count), ChannelKind.OTHER)
                .count(count)
                .target(SINK, ChannelKind.SOCKET)
                .build();
        return new TransferFacts(request, Peers.Peer.THIS_HOST_IPV4, TransferOptions.defaults(), platform, false, 0, 0);
    }

    private static TransferFacts streamTo(ChannelKind sourceKind, ChannelKind targetKind, Platform platform)
            throws IOException {
        TransferRequest request = TransferRequest.builder()
                .source(EMPTY, sourceKind)
                .target(SINK, targetKind)
                .build();
        return new TransferFacts(request, Peers.Peer.ELSEWHERE, TransferOptions.defaults(), platform, false, 0, 0);
    }

    /** The rows of the README's strategy table: the pair in words, and what the table says of it. */
    private static Map<String, String> readmeRows() throws IOException {
        List<String> lines = Files.readAllLines(README);
        int start = lines.indexOf("## Which strategy runs");
        assertThat(start).as("the README's strategy section").isNotNegative();
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (line.startsWith("| ") && !line.startsWith("| Source") && !line.startsWith("|---")) {
                String[] cells = line.split(" \\| ", 2);
                rows.put(cells[0].substring(2).trim(), cells[1]);
            }
        }
        return rows.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }
}
