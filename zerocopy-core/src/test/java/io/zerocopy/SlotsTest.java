package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What is put back is taken again, never twice at once, and a full set of slots says so. */
class SlotsTest {

    @Test
    void empty_takesNothing() {
        assertThat(new Slots<Object>().take()).isNull();
    }

    @Test
    void whatIsPutBack_isTakenAgain_theFirstSlotFirst() {
        Slots<String> slots = new Slots<>();
        assertThat(slots.put("a")).isTrue();
        assertThat(slots.put("b")).isTrue();
        assertThat(slots.take()).isEqualTo("a");
        assertThat(slots.put("c")).isTrue();
        assertThat(slots.take()).isEqualTo("c");
        assertThat(slots.take()).isEqualTo("b");
        assertThat(slots.take()).isNull();
    }

    @Test
    void full_refusesMore_andKeepsWhatItHolds() {
        Slots<Integer> slots = new Slots<>();
        for (int i = 0; i < slots.capacity(); i++) {
            assertThat(slots.put(i)).isTrue();
        }
        assertThat(slots.put(-1)).isFalse();
        List<Integer> taken = new ArrayList<>();
        for (Integer i; (i = slots.take()) != null; ) {
            taken.add(i);
        }
        assertThat(taken).hasSize(slots.capacity()).doesNotContain(-1).doesNotHaveDuplicates();
    }

    @Test
    void manyThreads_neverHoldTheSameOneAtOnce_andNothingIsLost() throws Exception {
        Slots<Object> slots = new Slots<>();
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < slots.capacity() / 2; i++) {
            items.add(new Object());
            slots.put(items.get(i));
        }
        int threads = 8;
        Set<Object> held = ConcurrentHashMap.newKeySet(); // plain objects: equal only to themselves
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        Object item = slots.take();
                        if (item == null) {
                            continue; // every one held by the other threads just now
                        }
                        assertThat(held.add(item))
                                .as("taken while another thread held it")
                                .isTrue();
                        held.remove(item);
                        assertThat(slots.put(item))
                                .as("a slot for what came out of one")
                                .isTrue();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> each : done) {
                each.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<Object> left = new ArrayList<>();
        for (Object i; (i = slots.take()) != null; ) {
            left.add(i);
        }
        assertThat(left).containsExactlyInAnyOrderElementsOf(items);
    }
}
