package io.zerocopy.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The tables of docs/benchmarks.md and docs/scale.md keep their exact form. */
class MarkdownTableTest {

    @Test
    void toString_headerRuleAndRows() {
        MarkdownTable table = new MarkdownTable()
                .column("Contender", "---")
                .column("N=1", "---:")
                .column("within 5%", ":---:")
                .row(List.of("**default**", "1.00 (0.95)", "yes"))
                .row(List.of("empty cell", "", "no"));

        assertThat(table.toString())
                .isEqualTo("| Contender | N=1 | within 5% |\n"
                        + "|---|---:|:---:|\n"
                        + "| **default** | 1.00 (0.95) | yes |\n"
                        + "| empty cell |  | no |\n");
    }
}
