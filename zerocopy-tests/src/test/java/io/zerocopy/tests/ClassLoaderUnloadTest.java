package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.Transfers;
import io.zerocopy.spi.TransferStrategy;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The library loaded by a class loader of an application's own, as an application server or a
 * plugin host loads it: once the application is done with it and the loader dropped, the loader
 * is collected. Before, the library's cleaner thread kept any loader whose library had lent a
 * pooled buffer (and, before Java 24, any loader that had started the thread at all), and with
 * native access the calling thread's {@code ThreadLocal} kept it too.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClassLoaderUnloadTest {
    private static final long SEED = Seeds.announce(ClassLoaderUnloadTest.class);

    @TempDir
    Path dir;

    @Test
    void aLoaderThatSentAFile_isCollectedOnceDropped() throws Exception {
        assertCollectedAfter(UnloadWorker.class);
    }

    @Test
    void aLoaderWhoseFileTheCleanerWatched_isCollectedOnceTheLeaseClosed() throws Exception {
        assertCollectedAfter(EvictedLeaseWorker.class);
    }

    /** Runs {@code worker} in a loader of its own, drops the loader, and polls with collections until it is gone. */
    private void assertCollectedAfter(Class<?> worker) throws Exception {
        Path file = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(1000, SEED));
        WeakReference<ClassLoader> loader = useAndDrop(worker, file);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (loader.get() != null && System.nanoTime() < deadline) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
        }
        assertThat(loader.get()).as("the application's class loader, collected").isNull();
    }

    /**
     * Loads the library and {@code worker} in a loader of their own, runs the worker's
     * {@code send(file)} on this thread, closes the loader.
     */
    private static WeakReference<ClassLoader> useAndDrop(Class<?> worker, Path file) throws Exception {
        URL[] classPath = {
            location(Transfers.class), location(TransferStrategy.class), location(LoggerFactory.class), location(worker)
        };
        try (URLClassLoader loader = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
            Class<?> loaded = Class.forName(worker.getName(), true, loader);
            assertThat(loaded.getClassLoader()).isSameAs(loader);
            Object result = loaded.getMethod("send", Path.class).invoke(null, file);
            assertThat(result).isEqualTo(1000L);
            return new WeakReference<>(loader);
        }
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
