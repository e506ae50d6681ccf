package io.zerocopy.tests;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed behind every piece of generated test data. A fresh seed is drawn for each run and
 * printed; {@code -Dzerocopy.seed=N} replays a run. Test classes put the seed in their display
 * names too, so a failure report always carries it.
 */
final class Seeds {
    static final String PROPERTY = "zerocopy.seed";

    private Seeds() {}

    /** The seed for {@code testClass}: the property's value if set, else a random one. Printed. */
    static long announce(Class<?> testClass) {
        String configured = System.getProperty(PROPERTY);
        long seed = configured != null && !configured.isBlank()
                ? Long.parseLong(configured.trim())
                : ThreadLocalRandom.current().nextLong();
        System.out.println(
                testClass.getSimpleName() + ": seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }

    /** A seed for one case derived from the class seed, so each case gets its own data. */
    static long derive(long seed, long salt) {
        long z = seed + 0x9E3779B97F4A7C15L * (salt + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
