package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Source;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target: the {@code copy} verbs over adversarial channels whose every decision (short counts,
 * zeros, a failure or a stall after N bytes, a file cut to a smaller size part-way) comes from the
 * fuzzer's input. Whatever happens: the bytes that reach the target are the model's bytes (a prefix
 * of them if the copy failed); a success returns exactly their number; a failure is a
 * {@link TransferException} whose {@code bytesTransferred()} is exactly what the target holds; the
 * exact-count verb never reads past its count; a header is consumed exactly as far as it was sent;
 * and nothing the caller passed in is closed or repositioned. Inputs stay in KiBs and a stall
 * times out after {@link #STALL}, so one input takes milliseconds. Runs its committed inputs in
 * every build; {@code docs/fuzzing.md} says how to fuzz it.
 */
class TransfersFuzzTest {

    /** Short, so that an input that stalls costs little; timing out is an allowed outcome here. */
    private static final Duration STALL = Duration.ofMillis(30);

    private static final String[] FILE_STRATEGIES = {
        "", BufferedStrategy.NAME, TransferToStrategy.NAME, MappedStrategy.NAME
    };

    @TempDir
    static Path dir;

    enum Verb {
        CHANNELS,
        EXACT_COUNT,
        FILE_SLICE,
        HEADER_AND_SLICE,
        PATH
    }

    @FuzzTest(maxDuration = "10m")
    void copy_adversarialChannels(FuzzedDataProvider data) throws IOException {
        Verb verb = data.pickValue(Verb.values());
        byte[] content = content(data.consumeInt(0, 8192));
        Random random = new FuzzRandom(data);
        Behaviour targetBehaviour = data.pickValue(Behaviour.values());
        Target target = Target.limited(targetBehaviour, data.consumeLong(0, content.length + 64), random);
        boolean zeros = zeros(targetBehaviour);
        TransferOptions.Builder options = TransferOptions.builder()
                .stallTimeout(STALL)
                .bufferSize(data.consumeInt(1, 16 * 1024))
                .mappedWindow(data.consumeInt(1, 16 * 1024));
        switch (verb) {
            case CHANNELS, EXACT_COUNT -> {
                Behaviour sourceBehaviour = data.pickValue(Behaviour.values());
                zeros |= zeros(sourceBehaviour);
                Source source =
                        Source.limited(content, sourceBehaviour, data.consumeLong(0, content.length + 64), random);
                if (data.consumeBoolean()) {
                    options.strategy(BufferedStrategy.NAME);
                }
                long count = verb == Verb.EXACT_COUNT ? data.consumeLong(0, content.length + 16) : -1;
                channels(options.build(), source, count, content, target, zeros);
            }
            default -> {
                String strategy = data.pickValue(FILE_STRATEGIES);
                if (!strategy.isEmpty()) {
                    options.strategy(strategy);
                }
                int position = verb == Verb.PATH ? 0 : data.consumeInt(0, content.length);
                long count = verb == Verb.PATH ? content.length : data.consumeLong(0, content.length - position);
                byte[] header = verb == Verb.HEADER_AND_SLICE ? data.consumeBytes(300) : new byte[0];
                // A mapped file cut under the copy faults where HotSpot chooses, not at a count (EngineTest)
                boolean shrink = !strategy.equals(MappedStrategy.NAME) && data.consumeBoolean();
                long cutAfter = data.consumeLong(0, header.length + count);
                int cutTo = data.consumeInt(0, content.length);
                file(
                        options.build(),
                        verb,
                        content,
                        position,
                        count,
                        header,
                        shrink ? cutAfter : -1,
                        cutTo,
                        target,
                        zeros);
            }
        }
    }

    /** A copy that fails part-way into a blocking fake: the count is what the target took, not what was read. */
    @Test
    void copy_sourceFailsAfterShortWrites_countIsWhatTargetHolds() throws IOException {
        byte[] content = content(5000);
        Random random = new Random(7);
        Source source = Source.limited(content, Behaviour.FAIL_AFTER_N, 3000, random);
        Target target = Target.limited(Behaviour.RANDOM_SHORT, 0, random);
        TransferOptions copier =
                TransferOptions.builder().stallTimeout(STALL).bufferSize(1024).build();
        channels(copier, source, -1, content, target, false);
        assertThat(target.size()).isEqualTo(3000);
    }

    private static void channels(
            TransferOptions copier, Source source, long count, byte[] content, Target target, boolean zeros)
            throws IOException {
        byte[] model = count < 0 ? content : Arrays.copyOf(content, (int) Math.min(count, content.length));
        try {
            long moved =
                    count < 0 ? Transfers.copy(source, target, copier) : Transfers.copy(source, count, target, copier);
            assertThat(moved).isEqualTo(model.length).isEqualTo(target.size());
            assertThat(count)
                    .as("a copy of %d bytes from %d", count, content.length)
                    .isLessThanOrEqualTo(content.length);
        } catch (TransferException e) {
            assertFailure(e, target, model, zeros);
            if (count > content.length && e.getCause() instanceof EOFException) {
                assertThat(e.bytesTransferred()).isEqualTo(content.length);
            }
        } finally {
            assertThat(source.isOpen()).as("source open").isTrue();
            assertThat(target.isOpen()).as("target open").isTrue();
        }
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), Arrays.copyOf(model, (int) target.size()));
        if (count >= 0) {
            assertThat(source.delivered()).as("read past the count").isLessThanOrEqualTo(count);
        }
    }

    private static void file(
            TransferOptions copier,
            Verb verb,
            byte[] content,
            int position,
            long count,
            byte[] header,
            long cutAfter,
            int cutTo,
            Target target,
            boolean zeros)
            throws IOException {
        Path path = Files.write(Files.createTempFile(dir, "source", ".bin"), content);
        long[] cut = {-1};
        if (cutAfter >= 0) {
            target.hook(total -> {
                if (cut[0] < 0 && total >= cutAfter) {
                    cut[0] = total;
                    try (FileChannel other = FileChannel.open(path, StandardOpenOption.WRITE)) {
                        other.truncate(cutTo);
                    }
                }
            });
        }
        ByteBuffer[] headers = split(header);
        byte[] model = new byte[(int) (header.length + count)];
        System.arraycopy(header, 0, model, 0, header.length);
        System.arraycopy(content, position, model, header.length, (int) count);
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ)) {
            source.position(content.length / 2);
            try {
                long moved = switch (verb) {
                    case FILE_SLICE -> Transfers.copy(source, position, count, target, copier);
                    case HEADER_AND_SLICE ->
                        Transfers.copy(FileRegion.of(source, position, count).withPrefix(headers), target, copier);
                    default -> Transfers.copy(path, target, copier);
                };
                assertThat(moved).isEqualTo(model.length).isEqualTo(target.size());
            } catch (TruncatedSourceException e) {
                assertThat(cut[0]).as("truncated without a cut").isNotNegative();
                assertThat(cutTo).isLessThan(position + (int) count);
                assertFailure(e, target, model, zeros);
            } catch (TransferException e) {
                assertFailure(e, target, model, zeros);
            }
            assertThat(source.isOpen()).as("source open").isTrue();
            assertThat(source.position()).as("source position").isEqualTo(content.length / 2);
            long headerSent = 0;
            for (ByteBuffer each : headers) {
                headerSent += each.position();
            }
            assertThat(headerSent).as("header consumed").isEqualTo(Math.min(target.size(), header.length));
        } finally {
            Files.delete(path);
        }
        assertThat(target.isOpen()).as("target open").isTrue();
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), Arrays.copyOf(model, (int) target.size()));
    }

    private static void assertFailure(TransferException e, Target target, byte[] model, boolean zeros) {
        assertThat(e.bytesTransferred()).as("count in %s", e).isEqualTo(target.size());
        assertThat(target.size()).isLessThanOrEqualTo(model.length);
        if (e instanceof TransferTimeoutException) {
            assertThat(zeros)
                    .as("timed out without a channel that moves nothing: %s", e)
                    .isTrue();
        }
    }

    private static boolean zeros(Behaviour behaviour) {
        return behaviour == Behaviour.ZEROS_NOW_AND_THEN || behaviour == Behaviour.STALL_AFTER_N;
    }

    /** Splits a header into up to three buffers at points taken from its own bytes. */
    private static ByteBuffer[] split(byte[] header) {
        if (header.length < 3) {
            return new ByteBuffer[] {ByteBuffer.wrap(header)};
        }
        int a = (header[0] & 0xff) % header.length;
        int b = a + (header[1] & 0xff) % (header.length - a);
        return new ByteBuffer[] {
            ByteBuffer.wrap(header, 0, a).slice(),
            ByteBuffer.wrap(header, a, b - a).slice(),
            ByteBuffer.wrap(header, b, header.length - b).slice()
        };
    }

    private static byte[] content(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    /**
     * The fakes' random choices, taken from the fuzzer's input while it lasts, then from a seeded
     * generator (so that an input that runs out does not turn into zeros for ever).
     */
    private static final class FuzzRandom extends Random {
        private static final long serialVersionUID = 1L;
        private final transient FuzzedDataProvider data;

        FuzzRandom(FuzzedDataProvider data) {
            super(19);
            this.data = data;
        }

        @Override
        public int nextInt(int bound) {
            return data.remainingBytes() > 0 ? data.consumeInt(0, bound - 1) : super.nextInt(bound);
        }
    }
}
