package io.zerocopy.examples;

import java.util.Arrays;

/** Small statistics for the timing programs. */
final class Stats {
    private Stats() {}

    /** The median of the values (the mean of the middle two for an even count); the array is not changed. */
    static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("values: empty (expected: at least one)");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
