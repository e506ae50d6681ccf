package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class DirectBuffersTest {

    @Test
    void acquire_returnsAClearedBufferAtLeastAsLargeAsAsked() {
        DirectBuffers pool = new DirectBuffers(1 << 20);
        ByteBuffer b = pool.acquire(4096);
        assertThat(b.isDirect()).isTrue();
        assertThat(b.capacity()).isGreaterThanOrEqualTo(4096);
        b.position(100).limit(200);
        pool.release(b);

        ByteBuffer again = pool.acquire(4096);
        assertThat(again).as("the released buffer is reused").isSameAs(b);
        assertThat(again.position()).isZero();
        assertThat(again.limit()).isEqualTo(again.capacity());
    }

    @Test
    void acquire_neverAllocatesPastTheBudget() {
        DirectBuffers pool = new DirectBuffers(3 * 4096);
        List<ByteBuffer> lent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            lent.add(pool.acquire(4096));
        }
        assertThat(lent).doesNotContainNull();
        assertThat(pool.allocated()).isEqualTo(3 * 4096);
        assertThat(Pools.canLend(pool, 4096)).isFalse();
        assertThat(pool.acquire(4096)).as("the budget is spent").isNull();
        assertThat(pool.allocated()).isEqualTo(3 * 4096);

        pool.release(lent.get(1));
        assertThat(Pools.canLend(pool, 4096)).isTrue();
        assertThat(pool.acquire(4096))
                .as("a released buffer serves the next transfer")
                .isSameAs(lent.get(1));
        assertThat(pool.allocated()).as("reuse allocates nothing").isEqualTo(3 * 4096);
    }

    @Test
    void aLentBufferNeverGivenBack_comesOffTheBudgetOnceUnreachable() {
        DirectBuffers pool = new DirectBuffers(2 * 4096);
        lendAndDrop(pool);
        lendAndDrop(pool);
        assertThat(pool.acquire(4096)).as("both dropped buffers still counted").isNull();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pool.allocated() > 0 && System.nanoTime() < deadline) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
        }
        assertThat(pool.allocated()).as("bytes counted after the GC found both").isZero();
        assertThat(pool.acquire(4096)).as("the budget is free again").isNotNull();
    }

    @Test
    void idleBuffersTooSmallForARequest_areDroppedToMakeRoomForIt() {
        DirectBuffers pool = new DirectBuffers(4 * 4096);
        List<ByteBuffer> small = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            small.add(pool.acquire(4096));
        }
        small.forEach(pool::release); // a burst of small transfers, all ended

        ByteBuffer large = pool.acquire(2 * 4096);
        assertThat(large).as("room made from idle small buffers").isNotNull();
        assertThat(large.capacity()).isEqualTo(2 * 4096);
        assertThat(pool.allocated()).as("two small ones dropped, two kept").isEqualTo(4 * 4096);
        assertThat(pool.acquire(4096)).as("a kept small one").isNotNull();
        assertThat(pool.acquire(4096)).as("the other kept small one").isNotNull();
        assertThat(pool.acquire(4096))
                .as("now the budget is spent by buffers in use")
                .isNull();
    }

    /**
     * Threads lending buffers of mixed sizes, giving most back and dropping some (a handle dropped
     * unclosed), while the pool drops idle small ones for larger requests: no buffer is lent to two
     * at once, the pool never counts more than its budget, and once nothing is in use the whole
     * budget can be had in a size larger than any lent before.
     */
    @Test
    void manyThreadsMixedSizesSomeDropped_neverLendOneBufferTwice_andTheBudgetHolds() throws Exception {
        long seed = Long.getLong("zerocopy.seed", 0xB0FFL);
        System.out.println("DirectBuffersTest: seed " + seed + " (replay with -Dzerocopy.seed=" + seed + ")");
        int[] sizes = {1024, 4096, 16384, 65536};
        DirectBuffers pool = new DirectBuffers(256 * 1024);
        Set<ByteBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());
        List<String> faults = Collections.synchronizedList(new ArrayList<>());
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                Random random = new Random(seed + t);
                boolean drops = t == 0;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        ByteBuffer b = pool.acquire(sizes[random.nextInt(sizes.length)]);
                        if (b == null) {
                            continue;
                        }
                        synchronized (lent) {
                            if (!lent.add(b)) {
                                faults.add("lent twice: " + b);
                            }
                        }
                        if (pool.allocated() > pool.budget()) {
                            faults.add("counted " + pool.allocated() + " of a budget of " + pool.budget());
                        }
                        synchronized (lent) {
                            lent.remove(b);
                        }
                        if (!drops || i % 1000 != 999) { // five of one thread's dropped, never given back
                            pool.release(b);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(faults).isEmpty();

        List<ByteBuffer> largest = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (largest.size() < 2 && System.nanoTime() < deadline) {
            ByteBuffer b = pool.acquire(128 * 1024); // larger than any lent before: room made only by dropping
            if (b != null) {
                largest.add(b);
            } else {
                System.gc(); // the dropped ones are found unreachable
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
            }
        }
        assertThat(largest)
                .as("the whole budget in a larger size, once nothing is in use")
                .hasSize(2);
        assertThat(pool.allocated()).isEqualTo(2 * 128 * 1024);
    }

    /** Lends a buffer that is never given back: a handle dropped without its close. */
    private static void lendAndDrop(DirectBuffers pool) {
        assertThat(pool.acquire(4096)).isNotNull();
    }

    @Test
    void acquire_findsALargeEnoughIdleBufferBehindASmallOne() {
        DirectBuffers pool = new DirectBuffers(4096 + 65536);
        ByteBuffer small = pool.acquire(4096);
        ByteBuffer large = pool.acquire(65536);
        pool.release(small);
        pool.release(large);

        assertThat(pool.acquire(65536)).isSameAs(large);
        assertThat(pool.acquire(65536))
                .as("only the small one is left and the budget is spent")
                .isNull();
        assertThat(pool.acquire(1024)).isSameAs(small);
    }

    /**
     * A thread paused while it is in the pool (descheduled by the OS, or left waiting by the
     * scheduler) holds up no other: hundreds of virtual threads once piled up on the pool's monitor
     * (docs/virtual-threads.md). Here the test thread holds the pool's monitor, as a thread paused in
     * a synchronized pool would.
     */
    @Test
    void acquireAndRelease_whileAnotherThreadHoldsThePoolsMonitor_neverWait() throws Exception {
        DirectBuffers pool = new DirectBuffers(1 << 20);
        ByteBuffer idle = pool.acquire(4096);
        pool.release(idle);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            synchronized (pool) {
                Future<ByteBuffer> lent = other.submit(() -> {
                    ByteBuffer b = pool.acquire(4096);
                    pool.release(b);
                    return b;
                });
                assertThat(lent.get(10, TimeUnit.SECONDS)).isSameAs(idle);
            }
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void zeroBudget_lendsNothing() {
        DirectBuffers pool = new DirectBuffers(0);
        assertThat(Pools.canLend(pool, 1)).isFalse();
        assertThat(pool.acquire(1)).isNull();
    }

    @Test
    void parseSize_readsTheJvmsNotation() {
        assertThat(DirectBuffers.parseSize("33554432")).isEqualTo(32L << 20);
        assertThat(DirectBuffers.parseSize("32768k")).isEqualTo(32L << 20);
        assertThat(DirectBuffers.parseSize("32m")).isEqualTo(32L << 20);
        assertThat(DirectBuffers.parseSize("32M")).isEqualTo(32L << 20);
        assertThat(DirectBuffers.parseSize("2g")).isEqualTo(2L << 30);
        assertThat(DirectBuffers.parseSize("0")).isZero();
        assertThat(DirectBuffers.parseSize("")).isEqualTo(-1);
        assertThat(DirectBuffers.parseSize("-1")).isEqualTo(-1);
        assertThat(DirectBuffers.parseSize("12q")).isEqualTo(-1);
        assertThat(DirectBuffers.parseSize("99999999999999999999")).isEqualTo(-1);
        assertThat(DirectBuffers.parseSize("9999999999999t")).isEqualTo(-1);
    }

    @Test
    void defaultBudget_isAQuarterOfTheLimitUpToTheCap() {
        assertThat(DirectBuffers.defaultBudget(32L << 20)).isEqualTo(8L << 20);
        assertThat(DirectBuffers.defaultBudget(1L << 30)).isEqualTo(DirectBuffers.DEFAULT_BUDGET_CAP);
        assertThat(DirectBuffers.maxDirectMemory()).isPositive();
    }

    @Test
    void bufferedStrategy_largeBufferSizeAllocatesOnlyWhatTheTransferNeeds() throws Exception {
        Path file = Files.createTempFile("tiny", ".bin");
        try {
            Files.write(file, new byte[10]);
            try (FileChannel in = FileChannel.open(file)) {
                TransferRequest request = TransferRequest.builder()
                        .source(in, ChannelKind.FILE)
                        .slice(0, 10)
                        .target(Channels.newChannel(OutputStream.nullOutputStream()), ChannelKind.OTHER)
                        .build();
                TransferFacts facts = TestFacts.of(
                        request, TransferOptions.builder().bufferSize(512 << 20).build(), Platform.current(), false);
                try (TransferStep step = BufferedStrategy.INSTANCE.open(facts)) {
                    // a pooled buffer may serve it; never one of the 512 MiB asked for
                    long capacity = Long.parseLong(step.toString().replaceAll("\\D+", ""));
                    assertThat(capacity).as("buffer capacity").isBetween(10L, (long)
                            BufferedStrategy.SHARED_SIZE_LIMIT);
                    assertThat(step.move(0, 10)).isEqualTo(10);
                }
            }
        } finally {
            Files.delete(file);
        }
    }
}
