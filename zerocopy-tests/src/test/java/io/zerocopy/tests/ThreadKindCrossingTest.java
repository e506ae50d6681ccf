package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.RandomAccessFile;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link Transfer} opened on one kind of thread and advanced on the other, into a blocking socket
 * whose peer reads nothing, then interrupted: what a full socket does to a step (park the virtual
 * thread, or block with the interrupt hook) is the advancing thread's to decide, each time. So the
 * interrupting thread returns at once and the transfer ends within 5 s, for the default and every
 * built-in strategy that sends a file (native where this JVM has it). Runs with and without the
 * native flags (both executions of this module); Java 21+ for virtual threads.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ThreadKindCrossingTest {
    private static final long FILE_SIZE = 64L << 20;

    @TempDir
    Path dir;

    static java.util.stream.Stream<Arguments> cases() {
        java.util.List<Arguments> cases = new java.util.ArrayList<>();
        for (String strategy : new String[] {"", "transferTo", "buffered", "mmap", "native"}) {
            cases.add(Arguments.of(strategy, ThreadKind.VIRTUAL, ThreadKind.PLATFORM));
            cases.add(Arguments.of(strategy, ThreadKind.PLATFORM, ThreadKind.VIRTUAL));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "strategy ''{0}'', opened on {1}, advanced on {2}")
    @MethodSource("cases")
    void openedOnOneKind_advancedOnTheOther_interrupted_endsAtOnce(
            String strategy, ThreadKind opener, ThreadKind advancer) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        assumeTrue(!strategy.equals("native") || opensNatively(dir), "no native path here");
        Path file = dir.resolve("big");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(FILE_SIZE);
        }
        TransferOptions options = strategy.isEmpty()
                ? TransferOptions.defaults()
                : TransferOptions.builder().strategy(strategy).build();
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel socket = receiver.connectChannel()) {
            Transfer transfer = on(opener, () -> Transfers.open(file, socket, options));
            AtomicLong moved = new AtomicLong();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread advancing = advanceToTheEnd(advancer, transfer, moved, outcome);
            awaitWaiting(advancing, moved);

            CompletableFuture<Void> interrupting = CompletableFuture.runAsync(advancing::interrupt);

            interrupting.get(5, TimeUnit.SECONDS); // the interrupting thread returns at once
            Throwable failure = outcome.get(5, TimeUnit.SECONDS);
            assertThat(failure).as("the transfer ends with a failure").isNotNull();
            advancing.join(TimeUnit.SECONDS.toMillis(5));
            assertThat(advancing.isAlive()).isFalse();
            receiver.openGate();
        }
    }

    /**
     * With one carrier thread and no spare, a virtual thread that waits for room in the socket must
     * leave the carrier to another virtual thread, and an interrupt must end it: opened on a platform
     * thread, advanced on a virtual one, in a child JVM started with this JVM's native flags.
     */
    @ParameterizedTest(name = "strategy ''{0}''")
    @ValueSource(strings = {"", "transferTo", "buffered", "native"})
    void advancedOnAVirtualThread_withOneCarrier_leavesItToAnother(String strategy) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        assumeTrue(!strategy.equals("native") || opensNatively(dir), "no native path here");
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        java.util.List<String> flags =
                java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int i = 0; i < flags.size(); i++) {
            if (flags.get(i).startsWith("--enable-native-access")) {
                command.add(flags.get(i));
            } else if (flags.get(i).startsWith("--add-exports")) {
                command.add(flags.get(i));
                if (flags.get(i).equals("--add-exports") && i + 1 < flags.size()) {
                    command.add(flags.get(++i));
                }
            }
        }
        command.addAll(java.util.List.of(
                "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                "-cp",
                System.getProperty("java.class.path"),
                SingleCarrierMain.class.getName(),
                strategy));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed;
        try {
            printed = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as(printed).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(printed).contains("other ran").contains("ended");
        assertThat(child.exitValue()).as(printed).isZero();
    }

    /**
     * Starts a thread of {@code kind} that advances {@code transfer} to its end, adding what each
     * advance moved to {@code moved}; {@code outcome} completes with null or what ended it.
     */
    static Thread advanceToTheEnd(
            ThreadKind kind, Transfer transfer, AtomicLong moved, CompletableFuture<Throwable> outcome) {
        Thread advancing = kind.newThread(
                () -> {
                    try {
                        while (!transfer.isDone()) {
                            moved.addAndGet(transfer.advance());
                        }
                        outcome.complete(null);
                    } catch (Throwable t) {
                        outcome.complete(t);
                    }
                },
                "advancer");
        advancing.start();
        return advancing;
    }

    /**
     * Waits until the advancing thread waits on the full socket: parked, blocked in a native call,
     * or past its first bytes (a step that polls for room returns between waits).
     */
    private static void awaitWaiting(Thread thread, AtomicLong moved) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Thread.State state = thread.getState();
            StackTraceElement[] stack = thread.getStackTrace();
            boolean inNative = stack.length > 0 && stack[0].isNativeMethod();
            if (moved.get() > 0 || state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || inNative) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the advancing thread never waited on the socket: " + thread.getState());
    }

    private static boolean opensNatively(Path dir) throws Exception {
        Path probe = java.nio.file.Files.write(dir.resolve("probe"), new byte[1]);
        try (io.zerocopy.OpenFile opened = io.zerocopy.OpenFile.open(probe)) {
            return opened.openedNatively();
        }
    }

    private static <T> T on(ThreadKind kind, java.util.concurrent.Callable<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        kind.newThread(
                        () -> {
                            try {
                                result.complete(task.call());
                            } catch (Throwable t) {
                                result.completeExceptionally(t);
                            }
                        },
                        "opener")
                .start();
        return result.get(30, TimeUnit.SECONDS);
    }
}
