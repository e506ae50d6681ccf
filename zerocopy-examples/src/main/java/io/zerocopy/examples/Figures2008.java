package io.zerocopy.examples;

import java.util.Map;

/** The widely cited 2008 zero-copy table: a 4 KiB read/write loop against {@code transferTo}, 7 MB to 1 GB. */
final class Figures2008 {
    /** The table's sizes, taken as MiB and GiB. */
    static final String SIZES = "7M,21M,63M,98M,200M,350M,700M,1G";

    /** By size in MiB: the loop's milliseconds, then transferTo's. */
    private static final Map<Long, long[]> BY_MIB = Map.of(
            7L, new long[] {156, 45},
            21L, new long[] {337, 128},
            63L, new long[] {843, 387},
            98L, new long[] {1320, 617},
            200L, new long[] {2124, 1150},
            350L, new long[] {3631, 1762},
            700L, new long[] {13498, 4422},
            1024L, new long[] {18399, 8537});

    private Figures2008() {}

    /** The loop's and transferTo's milliseconds in 2008 for a file of {@code bytes}, or null for a size not in the table. */
    static long[] of(long bytes) {
        return bytes % (1L << 20) == 0 ? BY_MIB.get(bytes >> 20) : null;
    }
}
