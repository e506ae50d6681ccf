package io.zerocopy.examples;

/**
 * One size of {@code compare}'s table: each method's median milliseconds, the strategy the
 * library chose, and the median of the per-run ratios of {@code transferTo}'s time to
 * {@code buffered 4 KiB}'s.
 */
record ComparisonRow(long size, double buffered4k, double transferTo, double auto, String autoStrategy, double ratio) {
    /** The share of {@code buffered 4 KiB}'s time that {@code transferTo} saves, in percent. */
    double saved() {
        return (1 - ratio) * 100;
    }

    /** The 2008 loop's and transferTo's milliseconds at this size, or null where the 2008 table has none. */
    long[] original() {
        return Figures2008.of(size);
    }
}
