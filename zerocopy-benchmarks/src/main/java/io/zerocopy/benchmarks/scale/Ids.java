package io.zerocopy.benchmarks.scale;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** Finds a constant by the id that the command line and the CSV files use for it. */
final class Ids {
    private Ids() {}

    /**
     * The one of {@code values} whose id is {@code text}, in any case.
     *
     * @throws IllegalArgumentException naming {@code what}, the text and the ids there are
     */
    static <T> T find(T[] values, Function<T, String> id, String what, String text) {
        for (T value : values) {
            if (id.apply(value).equalsIgnoreCase(text)) {
                return value;
            }
        }
        List<String> ids = Arrays.stream(values).map(id).toList();
        String last = ids.get(ids.size() - 1);
        String expected = ids.size() == 1 ? last : String.join(", ", ids.subList(0, ids.size() - 1)) + " or " + last;
        throw new IllegalArgumentException(what + ": " + text + " (expected: " + expected + ")");
    }
}
