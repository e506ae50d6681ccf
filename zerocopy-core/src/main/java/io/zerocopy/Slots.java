package io.zerocopy;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few idle objects kept for reuse, taken and put back with one compare-and-set each and nothing
 * allocated. Both scan from the first slot, so the same few are reused and stay in the CPU's cache.
 * Sized for about as many as the threads that run at once hold; what finds every slot full is the
 * caller's to keep elsewhere or drop. Thread-safe, and no thread ever waits for another here.
 */
final class Slots<T> {
    private final AtomicReferenceArray<T> slots =
            new AtomicReferenceArray<>(Math.max(8, 2 * Runtime.getRuntime().availableProcessors()));

    /** An idle one, or null if every slot is empty. */
    T take() {
        for (int i = 0; i < slots.length(); i++) {
            T idle = slots.get(i);
            if (idle != null && slots.compareAndSet(i, idle, null)) {
                return idle;
            }
        }
        return null;
    }

    /** Keeps {@code item} in the first empty slot; false if every slot is full. */
    boolean put(T item) {
        for (int i = 0; i < slots.length(); i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, item)) {
                return true;
            }
        }
        return false;
    }

    /** How many it holds at most. */
    int capacity() {
        return slots.length();
    }
}
