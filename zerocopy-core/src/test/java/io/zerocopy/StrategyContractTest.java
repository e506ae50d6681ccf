package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.AdversarialChannels.Behaviour;
import io.zerocopy.AdversarialChannels.Source;
import io.zerocopy.AdversarialChannels.Target;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of {@link TransferOptions}'s channel methods, checked as a property against every built-in
 * strategy: random data, a random slice, a random adversarial fake at one or both ends, small random
 * buffers and mapped windows, and the strategy forced by name. Every case is compared with a byte
 * array model ({@code Arrays.copyOfRange}) and checks the count, the bytes at the target, the
 * positions of file channels, the exception and its count on an injected failure, and the listener
 * calls.
 *
 * <p>The seed is printed and shown in every case's name; replay with {@code -Dzerocopy.seed=N}.
 */
class StrategyContractTest {

    static final long SEED = Long.getLong("zerocopy.seed", ThreadLocalRandom.current().nextLong());

    private static final int CASES_PER_STRATEGY = 50;
    private static final int MAX_SIZE = 300 * 1024;
    /** Data size cap when a fake moves one byte per call: transferTo re-reads up to 8 KiB per call. */
    private static final int MAX_SIZE_ONE_BYTE = 12 * 1024;
    /** Keeps a tiny buffer from turning a large case into hundreds of thousands of steps. */
    private static final int MAX_BUFFER_FILLS = 4096;

    @TempDir
    Path dir;

    @BeforeAll
    static void printSeed() {
        System.out.println(StrategyContractTest.class.getSimpleName() + ": seed " + SEED
                + " (replay with -Dzerocopy.seed=" + SEED + ")");
    }

    /** Which ends are real files and which are fakes. */
    enum Shape {
        FILE_TO_FAKE(true, false), FILE_TO_FILE(true, true), FAKE_TO_FAKE(false, false), FAKE_TO_FILE(false, true);

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
            this.shape = pick(r, shapesFor(strategy));
            this.call = shape.fileSource && r.nextBoolean() ? Call.CHANNEL : Call.SLICE;
            Behaviour[] fakeBehaviours = {Behaviour.ONE_BYTE, Behaviour.RANDOM_SHORT, Behaviour.ZEROS_NOW_AND_THEN,
                Behaviour.FAIL_AFTER_N};
            Behaviour src = shape.fileSource ? null : pick(r, fakeBehaviours);
            Behaviour dst = shape.fileTarget ? null : pick(r, fakeBehaviours);
            if (src == Behaviour.FAIL_AFTER_N && dst == Behaviour.FAIL_AFTER_N) {
                dst = Behaviour.RANDOM_SHORT; // one failure at a time keeps the expected count exact
            }
            boolean oneByte = src == Behaviour.ONE_BYTE || dst == Behaviour.ONE_BYTE;
            int cap = oneByte ? MAX_SIZE_ONE_BYTE : MAX_SIZE;
            int n = r.nextInt(8) == 0 ? r.nextInt(3) : r.nextInt(cap + 1);
            if (call == Call.CHANNEL && n == 0) {
                n = 1; // an empty file is read as a stream, which transferTo and mmap cannot serve
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

        /** What onStart should be told: the count for a file source, -1 for a stream. */
        long expectedAtStart() {
            return shape.fileSource ? count : -1;
        }

        private static Shape[] shapesFor(String strategy) {
            switch (strategy) {
                case TransferToStrategy.NAME:
                case MappedStrategy.NAME:
                    return new Shape[] {Shape.FILE_TO_FAKE, Shape.FILE_TO_FAKE, Shape.FILE_TO_FAKE, Shape.FILE_TO_FILE};
                case TransferFromStrategy.NAME:
                    return new Shape[] {Shape.FAKE_TO_FILE}; // it declines file sources
                case BufferedStrategy.NAME:
                    return Shape.values();
                default:
                    throw new AssertionError(strategy);
            }
        }

        private static <T> T pick(Random r, T[] choices) {
            return choices[r.nextInt(choices.length)];
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder()
                    .append(strategy).append(" #").append(index)
                    .append(" seed=").append(SEED)
                    .append(": ").append(shape.fileSource ? "file" : "fake(" + sourceBehaviour + ")")
                    .append(" -> ").append(shape.fileTarget ? "file" : "fake(" + targetBehaviour + ")");
            if (fails()) {
                s.append(" failAfter=").append(failAfter);
            }
            s.append(", size=").append(size);
            if (shape.fileSource) {
                s.append(", ").append(call).append(" from=").append(from).append(" count=").append(count);
            }
            if (shape.fileTarget) {
                s.append(", targetPrefix=").append(targetPrefix).append(" targetPosition=").append(targetPosition);
            }
            return s.append(", bufferSize=").append(bufferSize).append(", mappedWindow=").append(mappedWindow)
                    .toString();
        }
    }

    static Stream<Case> cases() {
        Random master = new Random(SEED);
        List<Case> cases = new ArrayList<>();
        for (String strategy : List.of(TransferToStrategy.NAME, TransferFromStrategy.NAME, MappedStrategy.NAME,
                BufferedStrategy.NAME)) {
            for (int i = 0; i < CASES_PER_STRATEGY; i++) {
                cases.add(new Case(i, strategy, master.nextLong()));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void copy_matchesModel(Case c) throws IOException {
        Random random = new Random(c.caseSeed);
        byte[] data = new byte[c.size];
        random.nextBytes(data);
        byte[] model = Arrays.copyOfRange(data, c.from, c.from + c.count);

        EventRecordingListener listener = new EventRecordingListener();
        TransferOptions options = TransferOptions.builder()
                .strategy(c.strategy)
                .bufferSize(c.bufferSize)
                .mappedWindow(c.mappedWindow)
                .listener(listener)
                .build();

        Path sourcePath = dir.resolve("source");
        Path targetPath = dir.resolve("target");
        byte[] prefix = new byte[c.targetPrefix];
        random.nextBytes(prefix);
        FileChannel sourceFile = null;
        FileChannel targetFile = null;
        try {
            ReadableByteChannel source;
            Source fakeSource = null;
            if (c.shape.fileSource) {
                Files.write(sourcePath, data);
                sourceFile = FileChannel.open(sourcePath, StandardOpenOption.READ);
                sourceFile.position(c.call == Call.SLICE ? c.sourcePosition : c.from);
                source = sourceFile;
            } else {
                fakeSource = c.sourceBehaviour == Behaviour.FAIL_AFTER_N
                        ? Source.limited(data, c.sourceBehaviour, c.failAfter, random)
                        : Source.of(data, c.sourceBehaviour, random);
                source = fakeSource;
            }
            WritableByteChannel target;
            Target fakeTarget = null;
            if (c.shape.fileTarget) {
                Files.write(targetPath, prefix);
                targetFile = FileChannel.open(targetPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
                targetFile.position(c.targetPosition);
                target = targetFile;
            } else {
                fakeTarget = c.targetBehaviour == Behaviour.FAIL_AFTER_N
                        ? Target.limited(c.targetBehaviour, c.failAfter, random)
                        : Target.of(c.targetBehaviour, random);
                target = fakeTarget;
            }

            long returned = -1;
            TransferException failure = null;
            try {
                returned = c.call == Call.SLICE && c.shape.fileSource
                        ? Transfers.copy(sourceFile, c.from, c.count, target, options)
                        : Transfers.copy(source, target, options);
            } catch (TransferException e) {
                failure = e;
            }

            long moved;
            if (c.fails()) {
                assertThat(failure).as("exception after an injected failure").isNotNull();
                moved = failure.bytesTransferred();
                assertThat(moved).as("bytesTransferred").isEqualTo(c.failAfter);
                IOException injected = fakeTarget != null && fakeTarget.lastFailure() != null
                        ? fakeTarget.lastFailure()
                        : fakeSource.lastFailure();
                assertThat(failure.getCause()).as("cause").isSameAs(injected);
                listener.assertFailed(c.strategy, c.expectedAtStart(), failure);
            } else {
                if (failure != null) {
                    throw new AssertionError("unexpected failure", failure);
                }
                moved = returned;
                assertThat(returned).as("returned count").isEqualTo(c.count);
                listener.assertCompleted(c.strategy, c.expectedAtStart(), c.count);
            }
            byte[] expected = Arrays.copyOf(model, (int) moved);

            if (fakeTarget != null) {
                ByteArrays.assertSameBytes("bytes at the target", fakeTarget.bytes(), expected);
                assertThat(fakeTarget.isOpen()).as("target still open").isTrue();
            } else {
                byte[] file = Files.readAllBytes(targetPath);
                byte[] expectedFile = Arrays.copyOf(prefix, Math.max(prefix.length, c.targetPosition + expected.length));
                System.arraycopy(expected, 0, expectedFile, c.targetPosition, expected.length);
                ByteArrays.assertSameBytes("target file", file, expectedFile);
                assertThat(targetFile.isOpen()).as("target still open").isTrue();
                assertThat(targetFile.position()).as("target position").isEqualTo(c.targetPosition + moved);
            }
            if (sourceFile != null) {
                assertThat(sourceFile.isOpen()).as("source still open").isTrue();
                assertThat(sourceFile.position()).as("source position")
                        .isEqualTo(c.call == Call.SLICE ? c.sourcePosition : c.from + moved);
            } else {
                assertThat(fakeSource.isOpen()).as("source still open").isTrue();
                assertThat(fakeSource.delivered()).as("bytes read from the source").isGreaterThanOrEqualTo(moved);
                if (!c.fails()) {
                    assertThat(fakeSource.delivered()).as("bytes read from the source").isEqualTo(c.count);
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
}
