package io.zerocopy.benchmarks.scale;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** The command line of {@link ScaleBenchmark}; see {@link #USAGE}. */
final class ScaleOptions {
    static final String USAGE = String.join(
            "\n",
            "usage: java -cp benchmarks.jar io.zerocopy.benchmarks.scale.ScaleBenchmark [options]",
            "  --plan committed|full|direct32m  which cells (default committed; full = every combination",
            "                                   of the lists below, 256m only for N <= 16)",
            "  --pairs loopback,veth,socketToFile  only these pairs",
            "  --threads platform,virtual       only these thread kinds (virtual needs JDK 21+)",
            "  --sizes 64k,8m,256m              only these sizes (for full: these sizes)",
            "  --n 1,16,256,1000                only these N (for full: these N)",
            "  --contenders a,b                 only these contenders (names of ScaleContenders)",
            "  --rounds R                       rounds per cell instead of the plan's",
            "  --slow-receivers                 every receiver starts slowly (see Cell)",
            "  --nodelay                        TCP_NODELAY on the sender's sockets",
            "  --timeout-s S                    deadline of one run (default 30 s + 20 s per GB)",
            "  --no-warmup                      skip the warm-up pass",
            "  --out DIR                        results directory (default target/scale-jdkNN)",
            "  --jvm-args \"ARGS\"                run in a child JVM with these flags, e.g.",
            "                                   \"-Xmx64m -XX:MaxDirectMemorySize=32m\"");

    String plan = "committed";
    Set<Pair> pairs;
    Set<ThreadKind> threads;
    List<Long> sizes;
    List<Integer> ns;
    List<String> contenders;
    Integer rounds;
    boolean slow;
    boolean noDelay;
    long timeoutSeconds;
    boolean warmup = true;
    Path out = Paths.get("target", "scale-jdk" + Runtime.version().feature());
    List<String> jvmArgs = List.of();
    /** The arguments without {@code --jvm-args}, for a child JVM. */
    final List<String> childArgs = new ArrayList<>();

    static ScaleOptions parse(String... args) {
        ScaleOptions o = new ScaleOptions();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            boolean flag = arg.equals("--slow-receivers") || arg.equals("--nodelay") || arg.equals("--no-warmup");
            if (!flag && !arg.equals("--help") && i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + ": missing value");
            }
            String value = flag || arg.equals("--help") ? null : args[++i];
            if (!arg.equals("--jvm-args")) {
                o.childArgs.add(arg);
                if (value != null) {
                    o.childArgs.add(value);
                }
            }
            switch (arg) {
                case "--plan" -> o.plan = value;
                case "--pairs" -> o.pairs = new LinkedHashSet<>(list(value, Pair::of));
                case "--threads" -> o.threads = new LinkedHashSet<>(list(value, ThreadKind::of));
                case "--sizes" -> o.sizes = list(value, Sizes::parse);
                case "--n" -> o.ns = list(value, ScaleOptions::positive);
                case "--contenders" -> o.contenders = list(value, s -> s);
                case "--rounds" -> o.rounds = positive(value);
                case "--slow-receivers" -> o.slow = true;
                case "--nodelay" -> o.noDelay = true;
                case "--timeout-s" -> o.timeoutSeconds = positive(value);
                case "--no-warmup" -> o.warmup = false;
                case "--out" -> o.out = Paths.get(value);
                case "--jvm-args" -> o.jvmArgs = Arrays.asList(value.trim().split("\\s+"));
                case "--help" -> throw new IllegalArgumentException("help");
                default -> throw new IllegalArgumentException("unknown option: " + arg);
            }
        }
        return o;
    }

    /** The plan's cells, narrowed and adjusted by the other options. */
    List<Cell> cells() {
        List<Cell> planned = plan.equals("full")
                ? Plans.matrix(
                        pairs == null ? List.of(Pair.values()) : List.copyOf(pairs),
                        threads == null ? List.of(ThreadKind.values()) : List.copyOf(threads),
                        sizes == null ? Plans.SIZES : sizes,
                        ns == null ? Plans.NS : ns)
                : Plans.named(plan);
        List<Cell> cells = new ArrayList<>();
        for (Cell cell : planned) {
            if ((pairs != null && !pairs.contains(cell.pair()))
                    || (threads != null && !threads.contains(cell.threads()))
                    || (sizes != null && !sizes.contains(cell.size()))
                    || (ns != null && !ns.contains(cell.n()))) {
                continue;
            }
            if (contenders != null) {
                Cell inPlan = cell;
                List<String> names = ScaleContenders.names(cell.pair());
                names.removeIf(name -> !contenders.contains(name)
                        || !(inPlan.contenders().contains(name) || ScaleContenders.onRequest(name)));
                if (names.isEmpty()) {
                    continue;
                }
                cell = cell.withContenders(names);
            }
            cell = rounds == null ? cell : cell.withRounds(rounds);
            cells.add(slow ? cell.withSlow(true) : cell);
        }
        return cells;
    }

    /** Unknown contender names, so a typo fails before anything runs. */
    void checkContenders() {
        if (contenders == null) {
            return;
        }
        for (String name : contenders) {
            if (!ScaleContenders.names(Pair.LOOPBACK).contains(name)
                    && !ScaleContenders.names(Pair.SOCKET_TO_FILE).contains(name)) {
                throw new IllegalArgumentException(
                        "contender: " + name + " (expected one of: " + ScaleContenders.names(Pair.LOOPBACK) + " or "
                                + ScaleContenders.names(Pair.SOCKET_TO_FILE) + ")");
            }
        }
    }

    private static <T> List<T> list(String value, Function<String, T> parse) {
        List<T> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(parse.apply(item.trim()));
            }
        }
        return items;
    }

    private static int positive(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("value: " + value + " (expected: an integer > 0)");
    }
}
