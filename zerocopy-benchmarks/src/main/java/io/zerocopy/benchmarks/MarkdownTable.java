package io.zerocopy.benchmarks;

import java.util.ArrayList;
import java.util.List;

/** A markdown table as the reports write it: the header, its rule, then one {@code | a | b |} line per row. */
public final class MarkdownTable {
    private final List<String> titles = new ArrayList<>();
    private final List<String> rules = new ArrayList<>();
    private final StringBuilder rows = new StringBuilder();

    /** Adds a column: its title and its rule ({@code ---} left, {@code ---:} right, {@code :---:} centred). */
    public MarkdownTable column(String title, String rule) {
        titles.add(title);
        rules.add(rule);
        return this;
    }

    /** Adds a row, one cell per column. */
    public MarkdownTable row(List<String> cells) {
        rows.append(line(cells));
        return this;
    }

    @Override
    public String toString() {
        return line(titles) + "|" + String.join("|", rules) + "|\n" + rows;
    }

    private static String line(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }
}
