package io.zerocopy.tests;

import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import java.nio.file.Path;
import java.time.Duration;

/**
 * For {@link ClassLoaderUnloadTest}: a cache of open files closed while a lease is out, which
 * hands the leased file to the library's cleaner thread, then the lease closed.
 */
public final class EvictedLeaseWorker {
    private EvictedLeaseWorker() {}

    /** Leases {@code file} from a cache, closes the cache, then the lease; the file's size. */
    public static long send(Path file) throws Exception {
        OpenFileCache cache = OpenFileCache.create(8, Duration.ofSeconds(1));
        OpenFile leased = cache.open(file);
        cache.close(); // evicts the leased file: watched by the cleaner until the lease closes
        try (leased) {
            return leased.attributes().size();
        }
    }
}
