package io.zerocopy.benchmarks.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The named plans keep their promises, and the options narrow them. */
class PlansTest {

    @Test
    void full_hasEveryCombinationButLarge256m() {
        List<Cell> cells = Plans.named("full");

        // 3 pairs x 2 thread kinds x (4 N at 64 KiB + 4 at 8 MiB + 2 at 256 MiB)
        assertThat(cells).hasSize(3 * 2 * 10);
        assertThat(cells).filteredOn(c -> c.size() == Plans.M256).allMatch(c -> c.n() <= Plans.LARGEST_N_FOR_256M);
    }

    @Test
    void committed_namesOnlyRegisteredContenders_andHasTheHeart() {
        List<Cell> cells = Plans.named("committed");

        for (Cell cell : cells) {
            assertThat(ScaleContenders.names(cell.pair())).containsAll(cell.contenders());
        }
        for (ThreadKind kind : ThreadKind.values()) {
            assertThat(cells)
                    .filteredOn(
                            c -> c.pair() == Pair.LOOPBACK && c.threads() == kind && c.size() == Plans.M8 && !c.slow())
                    .extracting(Cell::n)
                    .containsAll(Plans.NS);
        }
    }

    @Test
    void options_narrowAPlan() {
        ScaleOptions options = ScaleOptions.parse(
                "--plan",
                "committed",
                "--threads",
                "platform",
                "--pairs",
                "loopback",
                "--contenders",
                "default,rawTransferTo",
                "--rounds",
                "2",
                "--slow-receivers");

        List<Cell> cells = options.cells();

        assertThat(cells).isNotEmpty().allSatisfy(c -> {
            assertThat(c.threads()).isEqualTo(ThreadKind.PLATFORM);
            assertThat(c.pair()).isEqualTo(Pair.LOOPBACK);
            assertThat(c.contenders()).containsExactly("default", "rawTransferTo");
            assertThat(c.rounds()).isEqualTo(2);
            assertThat(c.slow()).isTrue();
        });
    }

    @Test
    void options_theLibraryAgainstTheRawLoops_isOneCell() {
        // the command in docs/defaults.md and the module README
        ScaleOptions options = ScaleOptions.parse(
                "--plan",
                "full",
                "--pairs",
                "loopback",
                "--threads",
                "platform",
                "--sizes",
                "1g",
                "--n",
                "1",
                "--rounds",
                "15",
                "--contenders",
                "default,transferTo,mmap,buffered,rawTransferTo,classic4k");

        assertThat(options.cells()).singleElement().satisfies(c -> {
            assertThat(c.size()).isEqualTo(1L << 30);
            assertThat(c.n()).isEqualTo(1);
            assertThat(c.rounds()).isEqualTo(15);
            assertThat(c.contenders())
                    .containsExactly("default", "transferTo", "mmap", "buffered", "rawTransferTo", "classic4k");
        });
    }

    @Test
    void options_jdkPathRunsOnlyWhenNamed() {
        // the same-run comparison of the native path with the JDK path in native-cells.sh
        ScaleOptions named = ScaleOptions.parse(
                "--plan",
                "full",
                "--pairs",
                "veth",
                "--threads",
                "platform",
                "--sizes",
                "16k,32k,64k",
                "--n",
                "64",
                "--contenders",
                "default,jdkPath");

        assertThat(named.cells())
                .hasSize(3)
                .allSatisfy(c -> assertThat(c.contenders()).containsExactly("default", "jdkPath"));
        assertThat(Plans.named("committed"))
                .allSatisfy(c -> assertThat(c.contenders()).doesNotContain("jdkPath"));
        assertThat(Plans.named("full"))
                .allSatisfy(c -> assertThat(c.contenders()).doesNotContain("jdkPath"));
    }

    @Test
    void options_jvmArgsAreKeptOutOfTheChildsArguments() {
        ScaleOptions options = ScaleOptions.parse(
                "--plan", "direct32m", "--jvm-args", "-Xmx64m -XX:MaxDirectMemorySize=32m", "--out", "x");

        assertThat(options.jvmArgs).containsExactly("-Xmx64m", "-XX:MaxDirectMemorySize=32m");
        assertThat(options.childArgs).containsExactly("--plan", "direct32m", "--out", "x");
    }

    @Test
    void options_rejectUnknownNames() {
        assertThatThrownBy(() -> ScaleOptions.parse("--contenders", "nope").checkContenders())
                .hasMessageStartingWith("contender: nope (expected one of:");
        assertThatThrownBy(() -> ScaleOptions.parse("--pairs", "wifi")).hasMessageStartingWith("pair: wifi");
        assertThatThrownBy(() -> ScaleOptions.parse("--sizes", "-1")).hasMessageStartingWith("size: -1");
    }
}
