package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zerocopy.testing.AdversarialChannels;
import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code copyAsync}: the future's result, cancellation while the copy waits on a full non-blocking
 * socket (the channel stays open and non-blocking, the count is exact), the caller's executor, and
 * the default one (a virtual thread on Java 21+, a daemon thread before).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CopyAsyncTest {
    static final long SEED = Long.getLong("zerocopy.seed", 0xA5Cl);

    private static final long WAIT_SECONDS = 20;

    @TempDir
    Path dir;

    private final Random random = new Random(SEED);

    /** Runs each copy on a thread of its own, which ends with it. */
    private final Executor ownThread = task -> new Thread(task, "copy-async-test").start();

    @BeforeAll
    static void printSeed() {
        System.out.println(
                CopyAsyncTest.class.getSimpleName() + ": seed " + SEED + " (replay with -Dzerocopy.seed=" + SEED + ")");
    }

    private byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Records the thread a copy runs on, its progress and how it ended. */
    static class Observer implements TransferListener {
        final CompletableFuture<Thread> started = new CompletableFuture<>();
        /** Whether the thread that heard onStart was virtual, asked there. */
        volatile boolean startedOnVirtual;

        final CompletableFuture<TransferException> failed = new CompletableFuture<>();
        final CompletableFuture<TransferResult> completed = new CompletableFuture<>();
        volatile long progress;
        volatile boolean interruptedAtFailure;

        @Override
        public void onStart(String strategy, long expectedBytes) {
            try {
                startedOnVirtual = isVirtual(Thread.currentThread());
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            started.complete(Thread.currentThread());
        }

        @Override
        public void onProgress(long bytesSoFar) {
            progress = bytesSoFar;
        }

        @Override
        public void onComplete(TransferResult result) {
            completed.complete(result);
        }

        @Override
        public void onFailure(TransferException failure) {
            interruptedAtFailure = Thread.currentThread().isInterrupted();
            failed.complete(failure);
        }
    }

    private static TransferOptions options(TransferListener listener) {
        return TransferOptions.builder().listener(listener).build();
    }

    @Test
    void copyAsync_completesWithTheResult() throws Exception {
        byte[] data = randomBytes((1 << 20) + 5);
        Path path = Files.write(dir.resolve("source"), data);
        Observer observer = new Observer();
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<byte[]> received = pair.drainInBackground();

            TransferResult result = Transfers.copyAsync(path, pair.sender, ownThread, options(observer))
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            pair.sender.shutdownOutput();

            assertThat(result.bytesTransferred()).isEqualTo(data.length);
            assertThat(result).isSameAs(observer.completed.getNow(null));
            ByteArrays.assertSameBytes("received", received.get(WAIT_SECONDS, TimeUnit.SECONDS), data);
            assertThat(pair.sender.isOpen()).isTrue();
        }
    }

    @ParameterizedTest(name = "pool executor: {0}")
    @ValueSource(booleans = {false, true})
    void copyAsync_cancelWhileWaitingOnAFullSocket_stopsWithoutClosingOrInterrupting(boolean callersExecutor)
            throws Exception {
        byte[] data = randomBytes(4 << 20);
        Path path = Files.write(dir.resolve("source"), data);
        Observer observer = new Observer();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (LoopbackPair pair = LoopbackPair.open()) {
            pair.sender.configureBlocking(false);
            CompletableFuture<TransferResult> future =
                    Transfers.copyAsync(path, pair.sender, callersExecutor ? executor : ownThread, options(observer));
            Thread worker = observer.started.get(WAIT_SECONDS, TimeUnit.SECONDS);
            awaitWaitingInASelector(worker); // the receiver reads nothing: the socket fills, the engine waits
            long before = observer.progress;

            assertThat(future.cancel(true)).isTrue();
            assertThat(pair.sender.isRegistered())
                    .as("the caller's socket in the library's selector once cancel returned")
                    .isFalse();

            TransferException failure = observer.failed.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(future.isCancelled()).isTrue();
            assertThrows(CancellationException.class, () -> future.get(WAIT_SECONDS, TimeUnit.SECONDS));
            assertThat(failure.getCause()).isInstanceOf(CancellationException.class);
            assertThat(failure.bytesTransferred())
                    .isPositive()
                    .isEqualTo(before)
                    .isLessThan(data.length);
            assertThat(observer.interruptedAtFailure)
                    .as("the copy's thread interrupted")
                    .isFalse();
            assertThat(observer.completed).isNotDone();
            assertThat(pair.sender.isOpen()).as("the caller's socket").isTrue();
            assertThat(pair.sender.isBlocking())
                    .as("the caller's socket is blocking")
                    .isFalse();
            awaitDeregistered(pair);

            pair.sender.shutdownOutput();
            byte[] got = LoopbackPair.readToEnd(pair.receiver);
            assertThat((long) got.length).as("bytes the receiver drains").isEqualTo(failure.bytesTransferred());
            ByteArrays.assertSameBytes("received", got, Arrays.copyOf(data, got.length));
        } finally {
            executor.shutdownNow();
        }
    }

    /**
     * A cancel that comes while a step is blocked in a blocking socket (here the whole file in one
     * {@code transferTo}, held up by a receiver that reads nothing) ends the copy as cancelled once
     * that step returns, with its exact count, even where the step moved the last byte.
     */
    @Test
    void copyAsync_cancelWhileAStepIsBlocked_endsCancelledWithTheCount() throws Exception {
        byte[] data = randomBytes(16 << 20);
        Path path = Files.write(dir.resolve("source"), data);
        Observer observer = new Observer();
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<TransferResult> future =
                    Transfers.copyAsync(path, pair.sender, ownThread, options(observer));
            LoopbackPair.readExactly(pair.receiver, 1); // a step is under way, and cannot end until read

            assertThat(future.cancel(false)).isTrue();
            CompletableFuture<byte[]> rest = pair.drainInBackground();
            CompletableFuture.anyOf(observer.failed, observer.completed).get(WAIT_SECONDS, TimeUnit.SECONDS);
            pair.sender.shutdownOutput();

            assertThat(observer.completed).as("onComplete").isNotDone();
            TransferException failure = observer.failed.get();
            assertThat(failure.getCause()).isInstanceOf(CancellationException.class);
            byte[] got = rest.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(failure.bytesTransferred()).as("the count").isEqualTo(1 + got.length);
            ByteArrays.assertSameBytes("received", got, Arrays.copyOfRange(data, 1, 1 + got.length));
        }
    }

    /**
     * {@code CompletableFuture.cancel} runs the future's dependent callbacks before it returns. One
     * that lets the copy go on (here: drains the receiver) must find it cancelled already: a
     * {@code cancel} that returns true ends the copy as cancelled, never in {@code onComplete}.
     * Before the fix the copy was told only after the callbacks, and completed during them.
     */
    @Test
    void copyAsync_cancelWhoseCallbackLetsTheCopyFinish_stillEndsCancelled() throws Exception {
        byte[] data = randomBytes(4 << 20);
        Path path = Files.write(dir.resolve("source"), data);
        Observer observer = new Observer();
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<TransferResult> future =
                    Transfers.copyAsync(path, pair.sender, ownThread, options(observer));
            LoopbackPair.readExactly(pair.receiver, 1); // under way, held up by a receiver that reads nothing
            CompletableFuture<CompletableFuture<byte[]>> rest = new CompletableFuture<>();
            future.whenComplete((result, failure) -> {
                rest.complete(pair.drainInBackground());
                CompletableFuture.anyOf(observer.failed, observer.completed)
                        .completeOnTimeout(null, WAIT_SECONDS, TimeUnit.SECONDS)
                        .join();
            });

            assertThat(future.cancel(false)).isTrue();
            CompletableFuture.anyOf(observer.failed, observer.completed).get(WAIT_SECONDS, TimeUnit.SECONDS);
            pair.sender.shutdownOutput();
            rest.get(WAIT_SECONDS, TimeUnit.SECONDS).get(WAIT_SECONDS, TimeUnit.SECONDS);

            assertThat(observer.completed)
                    .as("onComplete after cancel returned true")
                    .isNotDone();
            assertThat(observer.failed.get().getCause()).isInstanceOf(CancellationException.class);
        }
    }

    /**
     * A cancel that comes while the copy starts, before the copy could hand its engine over: an
     * empty file, which has nothing to move, must still end as cancelled, never in
     * {@code onComplete}. Before the fix it was done before the cancel could reach it.
     */
    @Test
    void copyAsync_ofAnEmptyFile_cancelledWhileItStarts_endsCancelled() throws Exception {
        Path path = Files.write(dir.resolve("empty"), new byte[0]);
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        Observer observer = new Observer() {
            @Override
            public void onStart(String strategy, long expectedBytes) {
                super.onStart(strategy, expectedBytes);
                cancelled
                        .completeOnTimeout(null, WAIT_SECONDS, TimeUnit.SECONDS)
                        .join();
            }
        };
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<TransferResult> future =
                    Transfers.copyAsync(path, pair.sender, ownThread, options(observer));
            observer.started.get(WAIT_SECONDS, TimeUnit.SECONDS);

            assertThat(future.cancel(false)).isTrue();
            cancelled.complete(null);
            CompletableFuture.anyOf(observer.failed, observer.completed).get(WAIT_SECONDS, TimeUnit.SECONDS);

            assertThat(observer.completed)
                    .as("onComplete after cancel returned true")
                    .isNotDone();
            assertThat(observer.failed.get().getCause()).isInstanceOf(CancellationException.class);
            assertThat(future.isCancelled()).isTrue();
        }
    }

    @Test
    void copyAsync_cancelledBeforeItRuns_neverStarts() throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        Observer observer = new Observer();
        List<Runnable> queued = new ArrayList<>();
        Executor later = queued::add;
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<TransferResult> future = Transfers.copyAsync(path, pair.sender, later, options(observer));

            assertThat(future.cancel(true)).isTrue();
            queued.forEach(Runnable::run);

            assertThat(queued).hasSize(1);
            assertThat(observer.started).as("onStart").isNotDone();
            assertThat(observer.failed).as("onFailure").isNotDone();
            pair.sender.shutdownOutput();
            assertThat(LoopbackPair.readToEnd(pair.receiver)).isEmpty();
        }
    }

    @Test
    void copyAsync_onAnExecutorThatRunsTheTaskTwice_copiesOnce() throws Exception {
        byte[] data = randomBytes(100_000);
        Path path = Files.write(dir.resolve("source"), data);
        AtomicInteger starts = new AtomicInteger();
        TransferListener counting = new TransferListener() {
            @Override
            public void onStart(String strategy, long expectedBytes) {
                starts.incrementAndGet();
            }
        };
        Executor twice = task -> {
            task.run();
            task.run();
        };
        AdversarialChannels.Target target =
                AdversarialChannels.Target.of(AdversarialChannels.Behaviour.RANDOM_SHORT, random);

        TransferResult result =
                Transfers.copyAsync(path, target, twice, options(counting)).get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(result.bytesTransferred()).isEqualTo(data.length);
        ByteArrays.assertSameBytes("written", target.bytes(), data);
        assertThat(starts).as("onStart calls").hasValue(1);
    }

    /** The future fails as {@code copy} fails on an interrupted thread: before anything is opened. */
    @Test
    void copyAsync_onAThreadAlreadyInterrupted_failsAsCopyWouldWithNothingOpened() throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        Observer observer = new Observer();
        Executor interrupting = task -> {
            Thread.currentThread().interrupt();
            try {
                task.run();
            } finally {
                Thread.interrupted();
            }
        };
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<TransferResult> future =
                    Transfers.copyAsync(path, pair.sender, interrupting, options(observer));

            ExecutionException e =
                    assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, TimeUnit.SECONDS));
            assertThat(e.getCause())
                    .isExactlyInstanceOf(TransferException.class)
                    .hasMessage("interrupted before the transfer started")
                    .hasCauseInstanceOf(InterruptedIOException.class);
            assertThat(observer.started).as("onStart heard").isNotDone();
            assertThat(observer.failed).as("onFailure heard").isNotDone();
            assertThat(pair.sender.isOpen()).isTrue();
        }
    }

    /** An {@code Error} of the listener's own, which the copy's thread must not throw to its executor. */
    private static final class ListenerError extends Error {
        ListenerError() {
            super("thrown by the listener");
        }
    }

    @Test
    void copyAsync_anErrorOfTheListener_completesTheFutureAndLeavesTheExecutor() throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        TransferListener throwing = new TransferListener() {
            @Override
            public void onComplete(TransferResult result) {
                throw new ListenerError();
            }
        };
        Executor direct = Runnable::run; // the task runs inside copyAsync: what it throws, the caller would get
        AdversarialChannels.Target target =
                AdversarialChannels.Target.of(AdversarialChannels.Behaviour.ONE_BYTE, random);

        CompletableFuture<TransferResult> future = Transfers.copyAsync(path, target, direct, options(throwing));

        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(ListenerError.class);
    }

    @Test
    void copyAsync_anExecutorThatRefuses_throwsItsRejectionAtOnce() throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        Observer observer = new Observer();
        Executor refusing = task -> {
            throw new RejectedExecutionException("full");
        };
        AdversarialChannels.Target target =
                AdversarialChannels.Target.of(AdversarialChannels.Behaviour.ONE_BYTE, random);

        assertThatThrownBy(() -> Transfers.copyAsync(path, target, refusing, options(observer)))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(observer.started).as("onStart").isNotDone();
        assertThat(target.calls()).isZero();
    }

    @Test
    void copyAsync_onTheCallersExecutor_runsOnItsThread() throws Exception {
        byte[] data = randomBytes(100_000);
        Path path = Files.write(dir.resolve("source"), data);
        Observer observer = new Observer();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "callers-executor"));
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<byte[]> received = pair.drainInBackground();

            TransferResult result = Transfers.copyAsync(path, pair.sender, executor, options(observer))
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            pair.sender.shutdownOutput();

            assertThat(observer.started.get().getName()).isEqualTo("callers-executor");
            assertThat(result.bytesTransferred()).isEqualTo(data.length);
            ByteArrays.assertSameBytes("received", received.get(WAIT_SECONDS, TimeUnit.SECONDS), data);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void copyAsync_missingFile_completesExceptionallyAsCopyWouldThrow() {
        Observer observer = new Observer();
        Path missing = dir.resolve("missing");

        CompletableFuture<TransferResult> future = Transfers.copyAsync(
                missing,
                AdversarialChannels.Target.of(AdversarialChannels.Behaviour.ONE_BYTE, random),
                ownThread,
                options(observer));

        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(NoSuchFileException.class);
        assertThat(observer.started).isNotDone();
    }

    @Test
    void copyAsync_nullArguments_throwAtOnce() {
        Path path = dir.resolve("any");
        AdversarialChannels.Target target =
                AdversarialChannels.Target.of(AdversarialChannels.Behaviour.ONE_BYTE, random);

        assertThrows(NullPointerException.class, () -> Transfers.copyAsync(null, target, ownThread));
        assertThrows(NullPointerException.class, () -> Transfers.copyAsync(path, null, ownThread));
        assertThrows(NullPointerException.class, () -> Transfers.copyAsync(path, target, null));
        assertThrows(NullPointerException.class, () -> Transfers.copyAsync(path, target, ownThread, null));
    }

    /** Thread.isVirtual() where it exists (Java 21+), else false. */
    static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
        Method isVirtual;
        try {
            isVirtual = Thread.class.getMethod("isVirtual");
        } catch (NoSuchMethodException e) {
            return false;
        }
        return (boolean) isVirtual.invoke(thread);
    }

    /** Polls (with a deadline) until {@code thread}'s stack shows it inside a selector's select. */
    private static void awaitWaitingInASelector(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            for (StackTraceElement frame : thread.getStackTrace()) {
                if (frame.getMethodName().equals("select")
                        && frame.getClassName().endsWith("SelectorImpl")) {
                    return;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval
        }
        throw new AssertionError(thread + " never waited in a selector: " + Arrays.toString(thread.getStackTrace()));
    }

    /** Polls (with a deadline) until the copy's selector let go of the caller's socket, as it does before the copy ends. */
    private static void awaitDeregistered(LoopbackPair pair) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (pair.sender.isRegistered() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval
        }
        assertThat(pair.sender.isRegistered())
                .as("the caller's socket registered with the copy's selector")
                .isFalse();
    }
}
