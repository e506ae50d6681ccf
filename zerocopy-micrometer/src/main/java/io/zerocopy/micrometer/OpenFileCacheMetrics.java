package io.zerocopy.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.zerocopy.OpenFileCache;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * What an {@link OpenFileCache} has done and holds, in a Micrometer {@link MeterRegistry}: each
 * meter reads {@link OpenFileCache#stats()} when the registry asks, so nothing is counted twice and
 * the cache's hit path does no more work for it. Bind it once per cache and registry:
 * {@code new OpenFileCacheMetrics(cache, Tags.of("server", "static")).bindTo(registry)}.
 *
 * <table>
 * <caption>The meters</caption>
 * <tr><th>Name</th><th>Type</th><th>What it measures</th></tr>
 * <tr><td>{@value #HITS}</td><td>function counter</td><td>opens served from an open file</td></tr>
 * <tr><td>{@value #MISSES}</td><td>function counter</td><td>opens of a file not cached</td></tr>
 * <tr><td>{@value #REOPENS}</td><td>function counter</td><td>cached files opened afresh: changed on disk, or their channel closed</td></tr>
 * <tr><td>{@value #EVICTIONS}</td><td>function counter</td><td>files let go to stay within the bound</td></tr>
 * <tr><td>{@value #OPEN}</td><td>gauge</td><td>descriptors open for the cache, leased ones let go included</td></tr>
 * <tr><td>{@value #LEASES}</td><td>gauge</td><td>files handed out and not yet closed</td></tr>
 * </table>
 *
 * <p>The meters hold the cache weakly, as Micrometer's own cache binders do: once the cache is
 * unreachable they read nothing more. Thread-safe.
 */
public final class OpenFileCacheMetrics implements MeterBinder {

    /** Function counter of opens served from an open file. */
    public static final String HITS = "zerocopy.file.cache.hits";

    /** Function counter of opens of a file that was not cached. */
    public static final String MISSES = "zerocopy.file.cache.misses";

    /** Function counter of cached files opened afresh. */
    public static final String REOPENS = "zerocopy.file.cache.reopens";

    /** Function counter of files let go to stay within the bound. */
    public static final String EVICTIONS = "zerocopy.file.cache.evictions";

    /** Gauge of descriptors open for the cache. */
    public static final String OPEN = "zerocopy.file.cache.open";

    /** Gauge of files handed out and not yet closed. */
    public static final String LEASES = "zerocopy.file.cache.leases";

    private final OpenFileCache cache;
    private final Tags tags;

    /**
     * Meters of {@code cache}, each with the common {@code tags}; registered by {@link #bindTo}.
     *
     * @param cache the cache to observe
     * @param tags tags every meter carries, such as which server's cache it is
     */
    public OpenFileCacheMetrics(OpenFileCache cache, Iterable<Tag> tags) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, HITS, "opens served from an open file", c -> c.stats().hits());
        counter(
                registry,
                MISSES,
                "opens of a file that was not cached",
                c -> c.stats().misses());
        counter(registry, REOPENS, "cached files opened afresh", c -> c.stats().reopens());
        counter(
                registry,
                EVICTIONS,
                "files let go to stay within the bound",
                c -> c.stats().evictions());
        Gauge.builder(OPEN, cache, c -> c.stats().openFiles())
                .description("descriptors open for the cache")
                .tags(tags)
                .register(registry);
        Gauge.builder(LEASES, cache, c -> c.stats().leases())
                .description("files handed out and not yet closed")
                .tags(tags)
                .register(registry);
    }

    private void counter(
            MeterRegistry registry, String name, String description, ToDoubleFunction<OpenFileCache> count) {
        FunctionCounter.builder(name, cache, count)
                .description(description)
                .tags(tags)
                .register(registry);
    }

    @Override
    public String toString() {
        return "OpenFileCacheMetrics{" + cache + ", " + tags + "}";
    }
}
