package io.zerocopy;

import java.lang.ref.Cleaner;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.slf4j.LoggerFactory;

/**
 * The library's one cleaner: what a caller dropped without closing it (a native file, a cache's
 * lease, a handle's mapped window or socket duplicate) is released once unreachable. A daemon
 * thread of its own, {@code zerocopy-cleaner}: the JDK's shared cleaner is where a server's
 * channels and buffers queue. Unlike a {@link Cleaner}'s, the thread ends once nothing is
 * registered and starts again with the next registration: a thread that lives keeps the library's
 * class loader (before Java 24, through the access control context every new thread inherits), so
 * an application that closed what it opened can be unloaded.
 */
final class Cleaners {
    /** How long the thread waits for an unreachable object before it looks whether anything is left. */
    private static final long IDLE_MILLIS = 1000;

    private static final ReferenceQueue<Object> UNREACHABLE = new ReferenceQueue<>();
    private static final Set<Watch> WATCHED = ConcurrentHashMap.newKeySet();

    /** The thread, or null when none runs; guarded by {@code Cleaners.class}. */
    private static Thread thread;

    private Cleaners() {}

    /** Runs {@code action} once {@code object} is unreachable, or at the returned {@code clean()}, once. */
    static Cleaner.Cleanable register(Object object, Runnable action) {
        Watch watch = new Watch(object, action);
        WATCHED.add(watch);
        synchronized (Cleaners.class) { // after the add: a thread about to end sees it
            if (thread == null) {
                Thread started = new Thread(Cleaners::run, "zerocopy-cleaner");
                started.setDaemon(true);
                started.setContextClassLoader(null); // an application's, inherited, would outlive its redeployment
                try {
                    started.start();
                    thread = started;
                } catch (OutOfMemoryError noThreadNow) {
                    // the registration stands: clean() still runs it, and the next registration starts the thread
                }
            }
        }
        return watch;
    }

    private static void run() {
        while (true) {
            Watch unreachable;
            try {
                unreachable = (Watch) UNREACHABLE.remove(IDLE_MILLIS);
            } catch (InterruptedException e) {
                unreachable = null; // no one interrupts it; look whether anything is left
            }
            if (unreachable != null) {
                try {
                    unreachable.clean();
                } catch (Throwable e) { // as the JDK's cleaner: one failed release stops no other
                    LoggerFactory.getLogger(Cleaners.class).warn("releasing a dropped resource failed", e);
                }
                continue;
            }
            synchronized (Cleaners.class) {
                if (WATCHED.isEmpty()) {
                    thread = null;
                    return;
                }
            }
        }
    }

    /** One registration: its action runs once, at {@code clean()} or once its object is unreachable. */
    private static final class Watch extends PhantomReference<Object> implements Cleaner.Cleanable {
        private static final AtomicReferenceFieldUpdater<Watch, Runnable> ACTION =
                AtomicReferenceFieldUpdater.newUpdater(Watch.class, Runnable.class, "action");

        private volatile Runnable action;

        Watch(Object object, Runnable action) {
            super(object, UNREACHABLE);
            this.action = action;
        }

        @Override
        public void clean() {
            Runnable once = ACTION.getAndSet(this, null);
            if (once == null) {
                return;
            }
            WATCHED.remove(this);
            clear();
            once.run();
        }
    }
}
