package io.zerocopy.benchmarks.defaults;

import java.util.Arrays;

/** The median the timing programs of this package report. */
final class Median {
    private Median() {}

    /** The median of the values (the mean of the middle two for an even count); the array is not changed. */
    static double of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("values: empty (expected: at least one)");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
