package io.zerocopy.benchmarks;

import java.util.Arrays;
import java.util.Collection;

/** The median every timing program of this module reports. */
public final class Median {
    private Median() {}

    /** The median of the values (the mean of the middle two for an even count); the array is not changed. */
    public static double of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("values: empty (expected: at least one)");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The median of the values, as {@link #of(double[])}. */
    public static double of(Collection<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
