package io.zerocopy.benchmarks.scale;

import io.zerocopy.benchmarks.Median;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Medians, percentiles and the number format of the CSV files. */
final class Stats {
    private Stats() {}

    /** The nearest-rank percentile of {@code values} (any order); NaN when there are none. */
    static double percentile(List<Double> values, double percent) {
        List<Double> sorted = present(values);
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(sorted);
        int rank = (int) Math.ceil(percent / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** The median (mean of the middle two for an even count); NaN when there are none. */
    static double median(List<Double> values) {
        List<Double> present = present(values);
        return present.isEmpty() ? Double.NaN : Median.of(present);
    }

    /** The values that are there: neither null nor NaN. */
    private static List<Double> present(List<Double> values) {
        List<Double> present = new ArrayList<>();
        for (Double v : values) {
            if (v != null && !v.isNaN()) {
                present.add(v);
            }
        }
        return present;
    }

    static String format(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.5g", value);
    }

    /** Free text as the last CSV field: no commas, no line breaks. */
    static String csvText(String text) {
        return text == null ? "" : text.replace(',', ';').replace('\n', ' ').replace('\r', ' ');
    }
}
