package io.zerocopy.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenFileCacheMetricsTest {
    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("try") // a lease held open is what the gauges count
    void meters_readTheCachesStats() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "alpha");
        Path b = Files.writeString(dir.resolve("b.txt"), "beta");
        MeterRegistry registry = new SimpleMeterRegistry();
        try (OpenFileCache cache = OpenFileCache.create(1, Duration.ofHours(1))) {
            new OpenFileCacheMetrics(cache, Tags.of("server", "test")).bindTo(registry);
            cache.open(a).close();
            cache.open(a).close();
            try (OpenFile held = cache.open(b)) {
                assertThat(gauge(registry, OpenFileCacheMetrics.LEASES)).isEqualTo(1);
                assertThat(gauge(registry, OpenFileCacheMetrics.OPEN)).isEqualTo(1);
            }
            assertThat(count(registry, OpenFileCacheMetrics.HITS)).isEqualTo(1);
            assertThat(count(registry, OpenFileCacheMetrics.MISSES)).isEqualTo(2);
            assertThat(count(registry, OpenFileCacheMetrics.EVICTIONS)).isEqualTo(1);
            assertThat(count(registry, OpenFileCacheMetrics.REOPENS)).isZero();
            assertThat(gauge(registry, OpenFileCacheMetrics.LEASES)).isZero();
        }
        assertThat(gauge(registry, OpenFileCacheMetrics.OPEN)).isZero();
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.get(name).tag("server", "test").functionCounter().count();
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).tag("server", "test").gauge().value();
    }
}
