package io.zerocopy;

import java.lang.ref.Cleaner;

/**
 * The library's one cleaner, started at its first use: what a caller dropped without closing it (a
 * native file, a cache's lease, a handle's mapped window or socket duplicate) is released once
 * unreachable. A daemon thread of its own: the JDK's shared cleaner is where a server's channels and
 * buffers queue. The thread keeps no caller's context class loader.
 */
final class Cleaners {
    private Cleaners() {}

    /** Runs {@code action} once {@code object} is unreachable, or at the returned {@code clean()}, once. */
    static Cleaner.Cleanable register(Object object, Runnable action) {
        return Holder.CLEANER.register(object, action);
    }

    private static final class Holder {
        static final Cleaner CLEANER = Cleaner.create(r -> {
            Thread thread = new Thread(r, "zerocopy-cleaner");
            thread.setDaemon(true);
            thread.setContextClassLoader(null); // an application's, inherited, would outlive its redeployment
            return thread;
        });
    }
}
