package io.zerocopy.examples;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code compare}: the 2008 zero-copy table, measured again on this machine. For each size it
 * sends a generated file to a {@link Server} on 127.0.0.1 with the 4 KiB read/write loop (the
 * {@code buffered} strategy forced to a 4096-byte buffer), with {@code transferTo} forced, and with
 * the library's own choice, several runs each, interleaved in a rotating order so that a slow
 * moment of a shared machine falls on every method alike. Prints median times beside the 2008
 * figures, writes {@code compare.csv}, {@code compare-runs.csv} and {@code compare.png}.
 *
 * <p>A time runs from just before the client connects until the server has seen end of stream.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Reproduces the 2008 zero-copy table on this machine: a 4 KiB read/write loop against "
                    + "transferTo (and the library's own choice), file to a socket over loopback. Prints medians beside "
                    + "the 2008 figures and writes a CSV and a PNG chart."
        })
final class CompareCommand implements Callable<Integer> {

    /** The sizes of the 2008 table (7 MB to 1 GB, taken as MiB and GiB). */
    static final String TABLE_SIZES = "7M,21M,63M,98M,200M,350M,700M,1G";

    static final String QUICK_SIZES = "64K,1M";
    static final int DEFAULT_RUNS = 11;

    /** The 2008 figures by size in MiB: read/write loop ms, transferTo ms. */
    static final Map<Long, long[]> ORIGINAL = new LinkedHashMap<>();

    static {
        ORIGINAL.put(7L, new long[] {156, 45});
        ORIGINAL.put(21L, new long[] {337, 128});
        ORIGINAL.put(63L, new long[] {843, 387});
        ORIGINAL.put(98L, new long[] {1320, 617});
        ORIGINAL.put(200L, new long[] {2124, 1150});
        ORIGINAL.put(350L, new long[] {3631, 1762});
        ORIGINAL.put(700L, new long[] {13498, 4422});
        ORIGINAL.put(1024L, new long[] {18399, 8537});
    }

    /** The three senders, in the CSV's and the table's order. */
    enum Sender {
        TRADITIONAL("4 KiB loop"),
        TRANSFER_TO("transferTo"),
        AUTO("auto");

        final String label;

        Sender(String label) {
            this.label = label;
        }
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = "--sizes",
            paramLabel = "LIST",
            split = ",",
            description = "File sizes, comma-separated, each a number with an optional K, M or G (binary units; "
                    + "default: the 2008 table's, " + TABLE_SIZES + "; with --quick: " + QUICK_SIZES + ").")
    List<String> sizes;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed runs of each method at each size (default: " + DEFAULT_RUNS + "; with --quick: 1).")
    Integer runs;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Directory for compare.csv, compare-runs.csv and compare.png (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("target", "compare");

    @Option(names = "--quick", description = "Tiny sizes and one run, no warm-up: checks that everything works.")
    boolean quick;

    @Option(names = "--nodelay", description = "Set TCP_NODELAY on the sending socket (turn Nagle's algorithm off).")
    boolean noDelay;

    @Option(
            names = "--no-progress",
            description = "No progress bar (there is none anyway when stderr is not a terminal).")
    boolean noProgress;

    /** The medians of one size. */
    record Row(long size, double traditional, double transferTo, double auto, String autoStrategy, double ratio) {
        /** The share of the loop's time that transferTo saves, in percent. */
        double saved() {
            return (1 - ratio) * 100;
        }

        long[] original() {
            return size % (1L << 20) == 0 ? ORIGINAL.get(size >> 20) : null;
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Long> bytes = parseSizes(sizes != null ? sizes : List.of((quick ? QUICK_SIZES : TABLE_SIZES).split(",")));
        int n = runs != null ? runs : quick ? 1 : DEFAULT_RUNS;
        if (n < 1) {
            throw new ParameterException(spec.commandLine(), "--runs: " + n + " (expected: at least 1)");
        }
        PrintWriter console = spec.commandLine().getOut();
        Files.createDirectories(out);
        Path dir = Files.createTempDirectory("zerocopy-compare");
        List<Path> files = new ArrayList<>();
        try {
            console.printf(
                    Locale.ROOT,
                    "Generating %d file%s (%s in all) in %s%n",
                    bytes.size(),
                    bytes.size() == 1 ? "" : "s",
                    label(bytes.stream().mapToLong(Long::longValue).sum()),
                    dir);
            console.flush();
            for (int i = 0; i < bytes.size(); i++) {
                Path file = dir.resolve("file-" + i + ".bin");
                files.add(file);
                GeneratedFile.create(file, bytes.get(i), 2008 + i);
            }
            console.printf(
                    Locale.ROOT,
                    "File to a socket over 127.0.0.1, %d run%s of each method per size, "
                            + "interleaved; TCP_NODELAY %s; Java %s; %s %s; %d cores%n",
                    n,
                    n == 1 ? "" : "s",
                    noDelay ? "on" : "off",
                    Runtime.version(),
                    System.getProperty("os.name"),
                    System.getProperty("os.version"),
                    Runtime.getRuntime().availableProcessors());
            console.flush();
            List<Row> rows = measure(bytes, files, n);
            printTable(console, rows);
            writeCsv(out.resolve("compare.csv"), rows, n);
            Path png = out.resolve("compare.png");
            ComparisonChart.write(png, rows, noDelay);
            console.printf(
                    Locale.ROOT,
                    "Wrote %s, %s and %s%n",
                    out.resolve("compare.csv"),
                    out.resolve("compare-runs.csv"),
                    png);
            console.flush();
        } finally {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        }
        return 0;
    }

    private List<Row> measure(List<Long> bytes, List<Path> files, int n) throws Exception {
        Sender[] methods = Sender.values();
        double[][][] ms = new double[bytes.size()][methods.length][n];
        String[] autoStrategy = new String[bytes.size()];
        BlockingQueue<Server.Connection> arrived = new LinkedBlockingQueue<>();
        int warmUp = quick ? -1 : warmUpIndex(bytes);
        long steps = (long) bytes.size() * methods.length * n + (warmUp >= 0 ? methods.length : 0);
        try (Server server = new Server(InetAddress.getLoopbackAddress(), 0, false, arrived::add);
                ProgressBar bar = progressBar(steps);
                Writer runsCsv = Files.newBufferedWriter(out.resolve("compare-runs.csv"), StandardCharsets.UTF_8)) {
            server.start();
            InetSocketAddress address = server.address();
            runsCsv.write("size_bytes,run,method,strategy,ms\n");
            LastResult last = new LastResult();
            Map<Sender, TransferOptions> optionSets = optionSets(last);
            if (warmUp >= 0) {
                for (Sender m : methods) {
                    send(optionSets.get(m), files.get(warmUp), bytes.get(warmUp), address, arrived);
                    step(bar, "warm-up " + m.label);
                }
            }
            for (int run = 0; run < n; run++) {
                for (int s = 0; s < bytes.size(); s++) {
                    for (int k = 0; k < methods.length; k++) {
                        Sender m = methods[Math.floorMod(k + run + s, methods.length)];
                        double t = send(optionSets.get(m), files.get(s), bytes.get(s), address, arrived);
                        ms[s][m.ordinal()][run] = t;
                        String strategy = last.get().strategy();
                        if (m == Sender.AUTO) {
                            autoStrategy[s] = strategy;
                        }
                        runsCsv.write(String.format(
                                Locale.ROOT, "%d,%d,%s,%s,%.3f%n", bytes.get(s), run + 1, m.label, strategy, t));
                        step(
                                bar,
                                String.format(
                                        Locale.ROOT, "run %d/%d, %s, %s", run + 1, n, label(bytes.get(s)), m.label));
                    }
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int s = 0; s < bytes.size(); s++) {
            double[] ratios = new double[n];
            for (int run = 0; run < n; run++) {
                ratios[run] = ms[s][Sender.TRANSFER_TO.ordinal()][run] / ms[s][Sender.TRADITIONAL.ordinal()][run];
            }
            rows.add(new Row(
                    bytes.get(s),
                    Stats.median(ms[s][0]),
                    Stats.median(ms[s][1]),
                    Stats.median(ms[s][2]),
                    autoStrategy[s],
                    Stats.median(ratios)));
        }
        return rows;
    }

    /** The largest file of at most 64 MiB (else the smallest): long enough to warm up every path, cheap. */
    private static int warmUpIndex(List<Long> bytes) {
        int best = 0;
        for (int i = 0; i < bytes.size(); i++) {
            long size = bytes.get(i);
            boolean fits = size <= 64L << 20;
            boolean bestFits = bytes.get(best) <= 64L << 20;
            if (fits && (!bestFits || size > bytes.get(best)) || !fits && !bestFits && size < bytes.get(best)) {
                best = i;
            }
        }
        return best;
    }

    private static Map<Sender, TransferOptions> optionSets(LastResult listener) {
        Map<Sender, TransferOptions> optionSets = new LinkedHashMap<>();
        optionSets.put(
                Sender.TRADITIONAL,
                TransferOptions.builder()
                        .strategy("buffered")
                        .bufferSize(4096)
                        .listener(listener)
                        .build());
        optionSets.put(
                Sender.TRANSFER_TO,
                TransferOptions.builder()
                        .strategy("transferTo")
                        .listener(listener)
                        .build());
        optionSets.put(Sender.AUTO, TransferOptions.builder().listener(listener).build());
        return optionSets;
    }

    /** Sends one file and returns the milliseconds from connecting until the server saw end of stream. */
    private double send(
            TransferOptions options,
            Path file,
            long size,
            InetSocketAddress address,
            BlockingQueue<Server.Connection> arrived)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        try (SocketChannel socket = SocketChannel.open()) {
            socket.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
            socket.connect(address);
            Transfers.copy(file, socket, options);
        }
        Server.Connection c = arrived.poll(5, TimeUnit.MINUTES);
        if (c == null) {
            throw new IOException("the receiver reported nothing within 5 minutes");
        }
        if (!c.complete() || c.bytes() != size) {
            throw new IOException(
                    "the receiver got " + c.bytes() + " bytes of " + size + (c.complete() ? "" : ": " + c.failure()));
        }
        return (c.endNanos() - start) / 1e6;
    }

    private ProgressBar progressBar(long steps) {
        if (noProgress || !stderrIsTerminal()) {
            return null;
        }
        return new ProgressBarBuilder()
                .setTaskName("compare")
                .setInitialMax(steps)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .setMaxRenderedLength(100)
                .clearDisplayOnFinish()
                .build();
    }

    private static void step(ProgressBar bar, String message) {
        if (bar != null) {
            bar.step();
            bar.setExtraMessage(message);
        }
    }

    /**
     * Whether the progress bar would reach a person: a console exists (JDK 17 gives none when
     * input or output is redirected) and, on JDK 22+, where a console exists even then, it is a
     * terminal.
     */
    static boolean stderrIsTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            java.lang.reflect.Method isTerminal = java.io.Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private void printTable(PrintWriter console, List<Row> rows) {
        console.println();
        console.println("| Size | 2008 loop ms | 2008 transferTo ms | 2008 saved | loop ms | transferTo ms "
                + "| auto ms | transferTo / loop | saved |");
        console.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Row r : rows) {
            long[] o = r.original();
            console.printf(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %.1f | %.1f | %.1f (%s) | %.2f | %.0f%% |%n",
                    label(r.size()),
                    o == null ? "-" : o[0],
                    o == null ? "-" : o[1],
                    o == null ? "-" : String.format(Locale.ROOT, "%.0f%%", (1 - (double) o[1] / o[0]) * 100),
                    r.traditional(),
                    r.transferTo(),
                    r.auto(),
                    r.autoStrategy(),
                    r.ratio(),
                    r.saved());
        }
        console.println();
        console.println("Medians; \"transferTo / loop\" is the median of the per-run ratios; \"saved\" is 1 minus it.");
        console.flush();
    }

    private void writeCsv(Path csv, List<Row> rows, int n) throws IOException {
        StringBuilder text = new StringBuilder("size_bytes,loop_ms,transferto_ms,auto_ms,auto_strategy,"
                + "transferto_vs_loop,saved_percent,original_loop_ms,original_transferto_ms,runs,nodelay\n");
        for (Row r : rows) {
            long[] o = r.original();
            text.append(String.format(
                    Locale.ROOT,
                    "%d,%.3f,%.3f,%.3f,%s,%.4f,%.1f,%s,%s,%d,%b%n",
                    r.size(),
                    r.traditional(),
                    r.transferTo(),
                    r.auto(),
                    r.autoStrategy(),
                    r.ratio(),
                    r.saved(),
                    o == null ? "" : o[0],
                    o == null ? "" : o[1],
                    n,
                    noDelay));
        }
        Files.writeString(csv, text, StandardCharsets.UTF_8);
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMG]?)(?:i?B)?", Pattern.CASE_INSENSITIVE);

    private List<Long> parseSizes(List<String> items) {
        List<Long> parsed = new ArrayList<>();
        for (String item : items) {
            Matcher m = SIZE.matcher(item.trim());
            long value;
            try {
                value = m.matches() ? Long.parseLong(m.group(1)) : -1;
            } catch (NumberFormatException e) {
                value = -1;
            }
            int shift = m.matches()
                    ? switch (m.group(2).toUpperCase(Locale.ROOT)) {
                        case "K" -> 10;
                        case "M" -> 20;
                        case "G" -> 30;
                        default -> 0;
                    }
                    : 0;
            if (value < 1 || value > (Long.MAX_VALUE >> 1 >> shift)) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--sizes: " + item
                                + " (expected: a positive number of bytes with an optional K, M or G, such as 7M or 1G)");
            }
            parsed.add(value << shift);
        }
        if (parsed.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--sizes: empty (expected: at least one size)");
        }
        return parsed;
    }

    /** A size as a person reads it: 7 MiB, 1 GiB, 64 KiB, or bytes. */
    static String label(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes >= 1L << 20 ? String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0) : bytes + " B";
    }

    static {
        // the chart is drawn off screen; never try to reach a display
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }
}
