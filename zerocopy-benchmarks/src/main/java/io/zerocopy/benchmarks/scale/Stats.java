package io.zerocopy.benchmarks.scale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Medians, percentiles and the number format of the CSV files. */
final class Stats {
    private Stats() {}

    /** The nearest-rank percentile of {@code values} (any order); NaN when there are none. */
    static double percentile(List<Double> values, double percent) {
        List<Double> sorted = new ArrayList<>();
        for (Double v : values) {
            if (v != null && !v.isNaN()) {
                sorted.add(v);
            }
        }
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(sorted);
        int rank = (int) Math.ceil(percent / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** The median (mean of the middle two for an even count); NaN when there are none. */
    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>();
        for (Double v : values) {
            if (v != null && !v.isNaN()) {
                sorted.add(v);
            }
        }
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(sorted);
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    static String format(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.5g", value);
    }

    /** Free text as the last CSV field: no commas, no line breaks. */
    static String csvText(String text) {
        return text == null ? "" : text.replace(',', ';').replace('\n', ' ').replace('\r', ' ');
    }
}
