package io.zerocopy.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferResult;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TransferListener} that counts transfers, their bytes and their durations, by strategy,
 * in a Micrometer {@link MeterRegistry}. Give one instance to the options of every transfer to
 * measure:
 *
 * <pre>{@code
 * MeterRegistry registry = new SimpleMeterRegistry(); // or the application's registry
 * TransferMetrics metrics = new TransferMetrics(registry, Tags.of("service", "media"));
 * TransferOptions options = TransferOptions.builder().listener(metrics).build();
 * long copied = Transfers.copy(source, target, options);
 * double bytes = registry.get("zerocopy.transfers.bytes").tag("outcome", "completed").counter().count();
 * }</pre>
 *
 * <p>This example is compiled and run by the module's tests ({@code source} and {@code target}
 * are two {@code Path}s there); every verb of {@code Transfers} takes the options the same
 * way, {@code open} and {@code copyAsync} included.
 *
 * <h2>Meters</h2>
 * Each meter also carries the common tags given to the constructor.
 * <table>
 * <caption>The meters and their tags</caption>
 * <tr><th>Name</th><th>Type</th><th>Tags</th><th>What it measures</th></tr>
 * <tr><td>{@value #STARTED}</td><td>counter</td><td>{@code strategy}</td>
 *     <td>transfers that started ({@link #onStart}), by the strategy chosen for them</td></tr>
 * <tr><td>{@value #ACTIVE}</td><td>gauge</td><td>none</td>
 *     <td>transfers started and not yet completed or failed</td></tr>
 * <tr><td>{@value #ENDED}</td><td>counter</td><td>{@code strategy}, {@code outcome}</td>
 *     <td>transfers that ended: {@code outcome=completed} by strategy, {@code outcome=failed}
 *     with {@code strategy=unknown}</td></tr>
 * <tr><td>{@value #BYTES}</td><td>counter, base unit bytes</td><td>{@code strategy},
 *     {@code outcome}</td><td>bytes that reached the target, counted when a transfer ends:
 *     {@link TransferResult#bytesTransferred()} when it completed, {@link TransferException#bytesTransferred()}
 *     when it failed</td></tr>
 * <tr><td>{@value #DURATION}</td><td>timer</td><td>{@code strategy}</td>
 *     <td>{@link TransferResult#elapsed()} of each completed transfer; its count is the number of
 *     completed transfers</td></tr>
 * </table>
 *
 * <p><b>Why failures have no strategy and no duration.</b> The listener callbacks do not say which
 * transfer they belong to, and one listener may hear several transfers at once: a transfer opened
 * with {@code open} hears {@code onStart} on the thread that opened it and {@code onFailure} on
 * whichever thread drives or closes it, where other transfers may have started in between. So
 * {@code onFailure} cannot be matched to its {@code onStart} without guessing, and this class keeps
 * no per-transfer state: a failure's strategy is recorded as {@value #UNKNOWN} and its duration not
 * at all, rather than guessed. {@value #STARTED} still counts every transfer by its strategy. A
 * transfer that is cancelled ({@code copyAsync}) or closed before it is done ends with
 * {@code onFailure} like any other failure and counts as {@code failed}; the public API does not
 * tell them apart. Bytes are counted once, when the transfer ends, not as they move.
 *
 * <p><b>Exactness of {@value #ACTIVE}.</b> Every {@code onStart} is followed by exactly one
 * {@code onComplete} or {@code onFailure}, except when a listener throws: the transfer then ends
 * without {@code onFailure} (see {@link TransferListener}). This class throws nothing of its own;
 * should the registry throw while it registers a meter (a meter of another type under the same
 * name, say), {@code onStart} has not yet counted the transfer as active and the end callbacks have
 * already uncounted it, so the gauge stays exact. A {@code Transfer} from {@code open} that is neither
 * driven to its end nor closed stays active, which it is.
 *
 * <p><b>Thread safety.</b> Thread-safe, and meant to be shared: one instance may hear any number of
 * transfers at once on any threads. Meters are registered when first needed (one set per strategy
 * name) and cached. Use one instance per registry and set of common tags: a second one with the
 * same tags shares its counters and timer, but the registry keeps only the first one's gauge.
 */
public final class TransferMetrics implements TransferListener {

    /** Counter of started transfers, by strategy. */
    public static final String STARTED = "zerocopy.transfers.started";

    /** Gauge of transfers that started and have not ended. */
    public static final String ACTIVE = "zerocopy.transfers.active";

    /** Counter of ended transfers, by strategy and outcome. */
    public static final String ENDED = "zerocopy.transfers.ended";

    /** Counter of bytes that reached the target, by strategy and outcome, counted when a transfer ends. */
    public static final String BYTES = "zerocopy.transfers.bytes";

    /** Timer of completed transfers, by strategy. */
    public static final String DURATION = "zerocopy.transfers.duration";

    /** Tag key: the strategy's name, such as {@code transferTo} or {@code buffered}. */
    public static final String STRATEGY_TAG = "strategy";

    /** Tag key: {@value #COMPLETED} or {@value #FAILED}. */
    public static final String OUTCOME_TAG = "outcome";

    /** Outcome of a transfer that moved every byte ({@link TransferListener#onComplete}). */
    public static final String COMPLETED = "completed";

    /** Outcome of a transfer that failed, was cancelled, or was closed before it was done. */
    public static final String FAILED = "failed";

    /** The strategy tag of failures, whose strategy cannot be known (see the type's documentation). */
    public static final String UNKNOWN = "unknown";

    private final MeterRegistry registry;
    private final Tags tags;
    private final AtomicLong active = new AtomicLong();
    private final ConcurrentMap<String, Counter> started = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Completions> completions = new ConcurrentHashMap<>();
    private final Counter failed;
    private final Counter failedBytes;

    /**
     * Metrics in {@code registry} with no common tags.
     *
     * @param registry where the meters are registered
     */
    public TransferMetrics(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * Metrics in {@code registry}, each meter with the common {@code tags} as well as its own. The
     * gauge and the failure meters are registered now, the others at the first transfer of each
     * strategy.
     *
     * @param registry where the meters are registered
     * @param tags tags added to every meter, such as {@code Tags.of("service", "media")}; must not
     *     use the keys {@value #STRATEGY_TAG} or {@value #OUTCOME_TAG}
     * @throws IllegalArgumentException if {@code tags} uses one of this class's tag keys
     */
    public TransferMetrics(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
        for (Tag tag : this.tags) {
            if (tag.getKey().equals(STRATEGY_TAG) || tag.getKey().equals(OUTCOME_TAG)) {
                throw new IllegalArgumentException(
                        "tags: " + this.tags + " (expected: no key " + STRATEGY_TAG + " or " + OUTCOME_TAG + ")");
            }
        }
        Gauge.builder(ACTIVE, active, AtomicLong::get)
                .description("Transfers that started and have not ended")
                .tags(this.tags)
                .strongReference(true)
                .register(registry);
        this.failed = ended(UNKNOWN, FAILED);
        this.failedBytes = bytes(UNKNOWN, FAILED);
    }

    /** Counts the transfer as started with {@code strategy} and as active. */
    @Override
    public void onStart(String strategy, long expectedBytes) {
        started.computeIfAbsent(
                        strategy,
                        s -> Counter.builder(STARTED)
                                .description("Transfers that started, by the strategy chosen for them")
                                .tags(tags)
                                .tag(STRATEGY_TAG, s)
                                .register(registry))
                .increment();
        // last: if registering the counter threw, the transfer ends without onFailure (the
        // listener contract) and must not stay active
        active.incrementAndGet();
    }

    /** Counts the transfer as completed, with its bytes and its elapsed time, and no longer active. */
    @Override
    public void onComplete(TransferResult result) {
        active.decrementAndGet();
        Completions c = completions.computeIfAbsent(result.strategy(), Completions::new);
        c.ended.increment();
        c.bytes.increment(result.bytesTransferred());
        c.duration.record(result.elapsed());
    }

    /**
     * Counts the transfer as failed, with the bytes that reached the target before it failed, and no
     * longer active.
     */
    @Override
    public void onFailure(TransferException failure) {
        active.decrementAndGet();
        failed.increment();
        failedBytes.increment(failure.bytesTransferred());
    }

    @Override
    public String toString() {
        return "TransferMetrics{" + registry.getClass().getSimpleName() + ", tags=" + tags + ", active=" + active.get()
                + "}";
    }

    private Counter ended(String strategy, String outcome) {
        return Counter.builder(ENDED)
                .description("Transfers that ended, by strategy and outcome")
                .tags(tags)
                .tag(STRATEGY_TAG, strategy)
                .tag(OUTCOME_TAG, outcome)
                .register(registry);
    }

    private Counter bytes(String strategy, String outcome) {
        return Counter.builder(BYTES)
                .description("Bytes that reached the target, counted when a transfer ends")
                .baseUnit("bytes")
                .tags(tags)
                .tag(STRATEGY_TAG, strategy)
                .tag(OUTCOME_TAG, outcome)
                .register(registry);
    }

    /** The meters a completed transfer of one strategy updates. */
    private final class Completions {
        final Counter ended;
        final Counter bytes;
        final Timer duration;

        Completions(String strategy) {
            this.ended = ended(strategy, COMPLETED);
            this.bytes = bytes(strategy, COMPLETED);
            this.duration = Timer.builder(DURATION)
                    .description("Time from the first step to the last of completed transfers")
                    .tags(tags)
                    .tag(STRATEGY_TAG, strategy)
                    .register(registry);
        }
    }
}
