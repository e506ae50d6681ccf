package io.zerocopy.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.zerocopy.FileRegion;
import io.zerocopy.Transfer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStrategy;
import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Source;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link TransferStrategy} must keep, as a JUnit 5 test to subclass: implement
 * {@link #strategy()} and the test runs it, forced by name through {@link Transfers}, over random
 * cases. Each case has random data, a random slice, a file or an adversarial fake at each end
 * (one byte per call, short counts, zeros now and then, a failure after N bytes), small random
 * buffers and mapped windows. Each is compared with a byte array model ({@code Arrays.copyOfRange}).
 *
 * <p>For every case the strategy is first asked {@link TransferStrategy#supports supports}. If it
 * says yes, the copy must move exactly the model's bytes, return the count, leave both channels open
 * and a file source's position where the verb says, and on an injected failure throw a
 * {@link TransferException} whose count is what reached the target. If it says no, the forced copy
 * must fail with {@code IllegalArgumentException} naming the strategy and its reason before a byte
 * moves. A strategy that serves none of the cases is still checked: it declines consistently.
 *
 * <p>The strategy must be registered ({@code provides ... with}, or
 * {@code META-INF/services/io.zerocopy.spi.TransferStrategy}) on the test class path, because the
 * engine finds a forced strategy by name. A strategy that serves only its own kind of target
 * overrides {@link #target(WritableByteChannel)}.
 *
 * <p>The seed is printed and shown in every case's name; replay with {@code -Dzerocopy.seed=N}.
 */
public abstract class TransferStrategyContract {

    /** The master seed: {@code -Dzerocopy.seed=N}, or a random one. */
    protected static final long SEED =
            Long.getLong("zerocopy.seed", ThreadLocalRandom.current().nextLong());

    private static final int CASES = 50;
    private static final int MAX_SIZE = 300 * 1024;
    /** Data size cap when a fake moves one byte per call. */
    private static final int MAX_SIZE_ONE_BYTE = 12 * 1024;
    /** Keeps a tiny buffer from turning a large case into hundreds of thousands of steps. */
    private static final int MAX_BUFFER_FILLS = 4096;
    /**
     * How long a case may go without moving a byte before it counts as stuck. A case that keeps
     * moving bytes is never cut short, however slowly a busy machine runs it: the fakes' zeros cost
     * the engine a pause each, and a loaded machine stretches every pause (docs/testing.md).
     */
    private static final Duration STUCK_AFTER = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The strategy under test; it must be registered under its {@link TransferStrategy#name() name}. */
    protected abstract TransferStrategy strategy();

    /**
     * The channel the copy writes to, given the contract's {@code target} (a file or a fake). Override
     * when the strategy serves only its own kind of target: return one that writes every byte it is
     * given through to {@code target}, with {@code target}'s short counts, zeros and failures, and
     * leaves it open.
     */
    protected WritableByteChannel target(WritableByteChannel target) {
        return target;
    }

    /**
     * Opens a case's source file for reading; the default is {@code FileChannel.open}. Override
     * when the strategy serves only files opened another way (the library's {@code OpenFile}).
     */
    protected FileChannel openSource(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    /** The listener for one case; the default hears nothing. */
    protected TransferListener listener() {
        return TransferListener.NONE;
    }

    /** Checks what {@link #listener()}'s listener heard in one case; the default checks nothing. */
    protected void verifyListener(TransferListener listener, Outcome outcome) {}

    /**
     * How one case ended, for {@link #verifyListener}.
     *
     * @param strategy the strategy's name
     * @param expectedAtStart the count a listener is told at start: the count for a file source, -1 for a stream
     * @param bytesTransferred the bytes that reached the target
     * @param failure the exception of a failed copy, or null
     * @param declined whether the strategy declined the case (then nothing started)
     */
    public record Outcome(
            String strategy,
            long expectedAtStart,
            long bytesTransferred,
            TransferException failure,
            boolean declined) {}

    /** Which ends are real files and which are fakes. */
    enum Shape {
        FILE_TO_FAKE(true, false),
        FILE_TO_FILE(true, true),
        FAKE_TO_FAKE(false, false),
        FAKE_TO_FILE(false, true);

        final boolean fileSource;
        final boolean fileTarget;

        Shape(boolean fileSource, boolean fileTarget) {
            this.fileSource = fileSource;
            this.fileTarget = fileTarget;
        }
    }

    /** Which copy method a file source goes through. */
    enum Call {
        /** {@code copy(FileChannel, position, count, target)}: the source's own position must not move. */
        SLICE,
        /** {@code copy(ReadableByteChannel, target)}: from the source's position to its end, which then advances. */
        CHANNEL
    }

    @TestFactory
    Stream<DynamicTest> copy_matchesModelOrDeclines() {
        TransferStrategy strategy = strategy();
        assertThat(strategy).as("strategy()").isNotNull();
        String name = strategy.name();
        System.out.println(getClass().getSimpleName() + " (" + name + "): seed " + SEED
                + " (replay with -Dzerocopy.seed=" + SEED + ")");
        Random master = new Random(SEED ^ name.hashCode());
        return IntStream.range(0, CASES)
                .mapToObj(i -> new Case(i, name, master.nextLong()))
                .map(c -> dynamicTest(c.toString(), () -> runUnlessStuck(strategy, c)));
    }

    /**
     * Runs a case on a thread of its own and waits for it, failing it (and interrupting the thread)
     * only if it moves no byte for {@link #STUCK_AFTER}.
     */
    private void runUnlessStuck(TransferStrategy strategy, Case c) throws Throwable {
        AtomicLong lastProgress = new AtomicLong(System.nanoTime());
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        run(strategy, c, lastProgress);
                        done.complete(null);
                    } catch (Throwable t) {
                        done.completeExceptionally(t);
                    }
                },
                "contract-case-" + c.index);
        thread.setDaemon(true);
        thread.start();
        while (true) {
            try {
                done.get(100, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                throw e.getCause();
            } catch (TimeoutException e) {
                long idle = System.nanoTime() - lastProgress.get();
                if (idle >= STUCK_AFTER.toNanos()) {
                    thread.interrupt();
                    Assertions.fail("no byte moved for " + TimeUnit.NANOSECONDS.toSeconds(idle) + " s: stuck");
                }
            }
        }
    }

    /** One generated case; everything it needs is derived from the master seed. */
    static final class Case {
        final int index;
        final String strategy;
        final Shape shape;
        final Call call;
        final long caseSeed;
        final int size;
        /** Where the model starts in the data: the slice position, or the file channel's position. */
        final int from;

        final int count;
        /** The file source's own position before a SLICE copy (must be unchanged after it). */
        final int sourcePosition;

        final Behaviour sourceBehaviour;
        final Behaviour targetBehaviour;
        final long failAfter;
        final int bufferSize;
        final int mappedWindow;
        final int targetPrefix;
        final int targetPosition;

        Case(int index, String strategy, long caseSeed) {
            this.index = index;
            this.strategy = strategy;
            this.caseSeed = caseSeed;
            Random r = new Random(caseSeed);
            this.shape = pick(r, Shape.values());
            this.call = shape.fileSource && r.nextBoolean() ? Call.CHANNEL : Call.SLICE;
            Behaviour[] fakeBehaviours = {
                Behaviour.ONE_BYTE, Behaviour.RANDOM_SHORT, Behaviour.ZEROS_NOW_AND_THEN, Behaviour.FAIL_AFTER_N
            };
            Behaviour src = shape.fileSource ? null : pick(r, fakeBehaviours);
            Behaviour dst = shape.fileTarget ? null : pick(r, fakeBehaviours);
            if (src == Behaviour.FAIL_AFTER_N && dst == Behaviour.FAIL_AFTER_N) {
                dst = Behaviour.RANDOM_SHORT; // one failure at a time keeps the expected count exact
            }
            boolean oneByte = src == Behaviour.ONE_BYTE || dst == Behaviour.ONE_BYTE;
            int cap = oneByte ? MAX_SIZE_ONE_BYTE : MAX_SIZE;
            int n = r.nextInt(8) == 0 ? r.nextInt(3) : r.nextInt(cap + 1);
            if (call == Call.CHANNEL && n == 0) {
                n = 1; // an empty file is read as a stream
            }
            this.size = n;
            if (shape.fileSource) {
                this.from = r.nextInt(3) == 0 ? 0 : r.nextInt(size + 1);
                this.count = call == Call.CHANNEL || r.nextInt(3) == 0 ? size - from : r.nextInt(size - from + 1);
                this.sourcePosition = r.nextInt(size + 1);
            } else {
                this.from = 0;
                this.count = size;
                this.sourcePosition = 0;
            }
            if (count == 0 && src == Behaviour.FAIL_AFTER_N) {
                src = Behaviour.RANDOM_SHORT;
            }
            if (count == 0 && dst == Behaviour.FAIL_AFTER_N) {
                dst = Behaviour.RANDOM_SHORT;
            }
            this.sourceBehaviour = src;
            this.targetBehaviour = dst;
            this.failAfter = src == Behaviour.FAIL_AFTER_N || dst == Behaviour.FAIL_AFTER_N ? r.nextInt(count) : -1;
            int buffer = (int) Math.round(Math.pow(2, r.nextDouble() * 16));
            this.bufferSize = Math.max(buffer, (count + MAX_BUFFER_FILLS - 1) / MAX_BUFFER_FILLS);
            this.mappedWindow = (int) Math.round(Math.pow(2, 12 + r.nextDouble() * 5));
            this.targetPrefix = shape.fileTarget && r.nextBoolean() ? r.nextInt(2049) : 0;
            this.targetPosition = r.nextBoolean() ? targetPrefix : r.nextInt(targetPrefix + 1);
        }

        boolean fails() {
            return failAfter >= 0;
        }

        long expectedAtStart() {
            return shape.fileSource ? count : -1;
        }

        private static <T> T pick(Random r, T[] choices) {
            return choices[r.nextInt(choices.length)];
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder()
                    .append(strategy)
                    .append(" #")
                    .append(index)
                    .append(" seed=")
                    .append(SEED)
                    .append(": ")
                    .append(shape.fileSource ? "file" : "fake(" + sourceBehaviour + ")")
                    .append(" -> ")
                    .append(shape.fileTarget ? "file" : "fake(" + targetBehaviour + ")");
            if (fails()) {
                s.append(" failAfter=").append(failAfter);
            }
            s.append(", size=").append(size);
            if (shape.fileSource) {
                s.append(", ")
                        .append(call)
                        .append(" from=")
                        .append(from)
                        .append(" count=")
                        .append(count);
            }
            if (shape.fileTarget) {
                s.append(", targetPrefix=")
                        .append(targetPrefix)
                        .append(" targetPosition=")
                        .append(targetPosition);
            }
            return s.append(", bufferSize=")
                    .append(bufferSize)
                    .append(", mappedWindow=")
                    .append(mappedWindow)
                    .toString();
        }
    }

    private void run(TransferStrategy strategy, Case c, AtomicLong lastProgress) throws IOException {
        Random random = new Random(c.caseSeed);
        byte[] data = new byte[c.size];
        random.nextBytes(data);
        byte[] model = Arrays.copyOfRange(data, c.from, c.from + c.count);

        TransferListener listener = listener();
        TransferOptions options = TransferOptions.builder()
                .strategy(c.strategy)
                .bufferSize(c.bufferSize)
                .mappedWindow(c.mappedWindow)
                .listener(new ProgressClock(listener, lastProgress))
                .build();

        Path sourcePath = Files.createTempFile(dir, "source", "");
        Path targetPath = Files.createTempFile(dir, "target", "");
        byte[] prefix = new byte[c.targetPrefix];
        random.nextBytes(prefix);
        FileChannel sourceFile = null;
        FileChannel targetFile = null;
        try {
            ReadableByteChannel source;
            Source fakeSource = null;
            if (c.shape.fileSource) {
                Files.write(sourcePath, data);
                sourceFile = openSource(sourcePath);
                sourceFile.position(c.call == Call.SLICE ? c.sourcePosition : c.from);
                source = sourceFile;
            } else {
                fakeSource = c.sourceBehaviour == Behaviour.FAIL_AFTER_N
                        ? Source.limited(data, c.sourceBehaviour, c.failAfter, random)
                        : Source.of(data, c.sourceBehaviour, random);
                source = fakeSource;
            }
            WritableByteChannel contractTarget;
            Target fakeTarget = null;
            if (c.shape.fileTarget) {
                Files.write(targetPath, prefix);
                targetFile = FileChannel.open(targetPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
                targetFile.position(c.targetPosition);
                contractTarget = targetFile;
            } else {
                fakeTarget = c.targetBehaviour == Behaviour.FAIL_AFTER_N
                        ? Target.limited(c.targetBehaviour, c.failAfter, random)
                        : Target.of(c.targetBehaviour, random);
                contractTarget = fakeTarget;
            }
            WritableByteChannel target = target(contractTarget);

            Support support = strategy.supports(request(source, target, c));
            assertThat(support).as("supports(...)").isNotNull();
            assertThat(support.reason()).as("supports(...).reason()").isNotBlank();

            long returned = -1;
            TransferException failure = null;
            long moved;
            if (!support.supported()) {
                FileChannel slice = sourceFile;
                assertThatThrownBy(() -> {
                            if (c.call == Call.SLICE && c.shape.fileSource) {
                                Transfers.copy(slice, c.from, c.count, target, options);
                            } else {
                                Transfers.copy(source, target, options);
                            }
                        })
                        .as("a forced copy the strategy declined (%s)", support.reason())
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("strategy: " + c.strategy)
                        .hasMessageContaining(support.reason());
                moved = 0;
                verifyListener(listener, new Outcome(c.strategy, c.expectedAtStart(), 0, null, true));
            } else {
                try {
                    returned = c.call == Call.SLICE && c.shape.fileSource
                            ? Transfers.copy(sourceFile, c.from, c.count, target, options)
                            : Transfers.copy(source, target, options);
                } catch (TransferException e) {
                    failure = e;
                }
                if (c.fails()) {
                    assertThat(failure)
                            .as("exception after an injected failure")
                            .isNotNull();
                    moved = failure.bytesTransferred();
                    assertThat(moved).as("bytesTransferred").isEqualTo(c.failAfter);
                    IOException injected = fakeTarget != null && fakeTarget.lastFailure() != null
                            ? fakeTarget.lastFailure()
                            : fakeSource.lastFailure();
                    assertThat(failure.getCause()).as("cause").isSameAs(injected);
                } else {
                    if (failure != null) {
                        throw new AssertionError("unexpected failure", failure);
                    }
                    moved = returned;
                    assertThat(returned).as("returned count").isEqualTo(c.count);
                }
                verifyListener(listener, new Outcome(c.strategy, c.expectedAtStart(), moved, failure, false));
            }
            byte[] expected = Arrays.copyOf(model, (int) moved);

            assertThat(target.isOpen()).as("target still open").isTrue();
            if (fakeTarget != null) {
                assertSameBytes("bytes at the target", fakeTarget.bytes(), expected);
                assertThat(fakeTarget.isOpen()).as("target still open").isTrue();
            } else {
                byte[] file = Files.readAllBytes(targetPath);
                byte[] expectedFile =
                        Arrays.copyOf(prefix, Math.max(prefix.length, c.targetPosition + expected.length));
                System.arraycopy(expected, 0, expectedFile, c.targetPosition, expected.length);
                assertSameBytes("target file", file, expectedFile);
                assertThat(targetFile.isOpen()).as("target still open").isTrue();
                assertThat(targetFile.position()).as("target position").isEqualTo(c.targetPosition + moved);
            }
            if (sourceFile != null) {
                assertThat(sourceFile.isOpen()).as("source still open").isTrue();
                assertThat(sourceFile.position())
                        .as("source position")
                        .isEqualTo(c.call == Call.SLICE ? c.sourcePosition : c.from + moved);
            } else {
                assertThat(fakeSource.isOpen()).as("source still open").isTrue();
                assertThat(fakeSource.delivered())
                        .as("bytes read from the source")
                        .isGreaterThanOrEqualTo(moved);
                if (support.supported() && !c.fails()) {
                    assertThat(fakeSource.delivered())
                            .as("bytes read from the source")
                            .isEqualTo(c.count);
                }
            }
        } finally {
            if (sourceFile != null) {
                sourceFile.close();
            }
            if (targetFile != null) {
                targetFile.close();
            }
        }
    }

    /**
     * A transfer may be advanced by any thread, one at a time, and closed by another: advanced
     * alternately on two threads it moves the model's bytes, and closed part-way on a third it
     * refuses further advances. A file region to a fake target that takes a few bytes per call, or
     * to a file where the strategy declines the fake; small buffers and windows, so that the
     * transfer takes many steps.
     */
    @Test
    void open_advancedOnTwoThreadsClosedOnAThird() throws Exception {
        String name = strategy().name();
        Random random = new Random(SEED ^ name.hashCode());
        byte[] data = new byte[64 * 1024 + random.nextInt(4096)];
        random.nextBytes(data);
        TransferOptions options = TransferOptions.builder()
                .strategy(name)
                .bufferSize(4096)
                .mappedWindow(8192)
                .build();
        ExecutorService[] threads = {
            Executors.newSingleThreadExecutor(),
            Executors.newSingleThreadExecutor(),
            Executors.newSingleThreadExecutor()
        };
        Path sourcePath = Files.write(Files.createTempFile(dir, "across", ""), data);
        Path targetPath = Files.createTempFile(dir, "across-target", "");
        try (FileChannel file = openSource(sourcePath);
                FileChannel targetFile = FileChannel.open(targetPath, StandardOpenOption.WRITE)) {
            for (boolean closePartWay : new boolean[] {false, true}) {
                Target fake = Target.of(Behaviour.RANDOM_SHORT, random);
                WritableByteChannel target = fake;
                if (!strategy().supports(request(file, fake, data.length)).supported()) {
                    target = targetFile;
                    if (!strategy()
                            .supports(request(file, targetFile, data.length))
                            .supported()) {
                        return; // declining is the other test's
                    }
                }
                targetFile.truncate(0).position(0);
                WritableByteChannel to = target;
                Transfer transfer = threads[0]
                        .submit(() -> Transfers.open(FileRegion.of(file, 0, data.length), to, options))
                        .get(STUCK_AFTER.toSeconds(), TimeUnit.SECONDS);
                for (int i = 0; !transfer.isDone() && i < data.length; i++) {
                    threads[i % 2].submit(transfer::advance).get(STUCK_AFTER.toSeconds(), TimeUnit.SECONDS);
                    if (closePartWay && i == 1) {
                        threads[2]
                                .submit(() -> {
                                    transfer.close();
                                    return null;
                                })
                                .get(STUCK_AFTER.toSeconds(), TimeUnit.SECONDS);
                        break;
                    }
                }
                long moved = transfer.bytesTransferred();
                if (closePartWay && !transfer.isDone()) {
                    assertThatThrownBy(transfer::advance)
                            .as("advance after a close on another thread")
                            .isInstanceOf(IllegalStateException.class);
                } else {
                    assertThat(transfer.isDone()).as("done").isTrue();
                    assertThat(moved).as("bytes moved").isEqualTo(data.length);
                }
                byte[] arrived = target == fake ? fake.bytes() : Files.readAllBytes(targetPath);
                assertSameBytes("bytes at the target", arrived, Arrays.copyOf(data, (int) moved));
            }
        } finally {
            for (ExecutorService thread : threads) {
                thread.shutdownNow();
            }
        }
    }

    private static TransferRequest request(FileChannel source, WritableByteChannel target, long count) {
        return TransferRequest.builder()
                .source(source, ChannelKind.FILE)
                .slice(0, count)
                .target(target, target instanceof FileChannel ? ChannelKind.FILE : ChannelKind.OTHER)
                .build();
    }

    /** Compares byte arrays by length and first difference, without printing them. */
    private static void assertSameBytes(String what, byte[] actual, byte[] expected) {
        int at = Arrays.mismatch(actual, expected);
        assertThat(at)
                .as(
                        "%s: first difference (at index %d: %d bytes, expected %d)",
                        what, at, actual.length, expected.length)
                .isEqualTo(-1);
    }

    /** The request the engine makes of this case's channels, as a strategy sees it. */
    private static TransferRequest request(ReadableByteChannel source, WritableByteChannel target, Case c)
            throws IOException {
        TransferRequest.Builder b = TransferRequest.builder()
                .target(target, target instanceof FileChannel ? ChannelKind.FILE : ChannelKind.OTHER);
        if (source instanceof FileChannel) {
            FileChannel file = (FileChannel) source;
            b.source(file, ChannelKind.FILE);
            if (c.call == Call.SLICE) {
                b.slice(c.from, c.count);
            } else {
                b.slice(file.position(), file.size() - file.position());
            }
        } else {
            b.source(source, ChannelKind.OTHER);
        }
        return b.build();
    }

    /** Passes every event on to a case's listener, and notes the time of each progress event. */
    private static final class ProgressClock implements TransferListener {
        private final TransferListener listener;
        private final AtomicLong lastProgress;

        ProgressClock(TransferListener listener, AtomicLong lastProgress) {
            this.listener = listener;
            this.lastProgress = lastProgress;
        }

        @Override
        public void onStart(String strategy, long expectedBytes) {
            listener.onStart(strategy, expectedBytes);
        }

        @Override
        public void onProgress(long bytesTransferred) {
            lastProgress.set(System.nanoTime());
            listener.onProgress(bytesTransferred);
        }

        @Override
        public void onComplete(TransferResult result) {
            listener.onComplete(result);
        }

        @Override
        public void onFailure(TransferException failure) {
            listener.onFailure(failure);
        }
    }
}
