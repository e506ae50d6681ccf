package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zerocopy.FileRegion;
import io.zerocopy.OpenFile;
import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target for the native file path (this module's native-access run, Java 22+): a file opened
 * as {@link OpenFile} opens it, or by {@code copy(Path, ...)}, sent as a slice, with a prefix, or
 * whole, with {@code native} forced, excluded, another strategy forced or none, into a target whose
 * every short count, zero, failure or stall comes from the input, the file cut part-way where the
 * input says. Whatever happens: the target holds a prefix of the model's bytes (all of them on
 * success, which returns their number); a failure is a {@link TransferException} counting exactly
 * what the target holds, a {@link TruncatedSourceException} only after a cut below the slice's end;
 * the caller's file stays open at its position. Inputs stay in KiBs, a stall times out after 30 ms.
 * {@code docs/fuzzing.md} says how to fuzz it.
 */
class NativeCopyFuzzTest {
    private static final Duration STALL = Duration.ofMillis(30);
    private static final String[] CHOICES = {"", "native", "exclude native", "buffered", "transferTo"};

    @TempDir
    static Path dir;

    enum Verb {
        SLICE,
        PREFIX_AND_SLICE,
        PATH
    }

    @FuzzTest(maxDuration = "10m")
    void copy_nativeFileIntoAdversarialTarget(FuzzedDataProvider data) throws IOException {
        Verb verb = data.pickValue(Verb.values());
        byte[] content = new byte[data.consumeInt(0, 100_000)];
        new Random(content.length).nextBytes(content);
        Random random = new Random(data.consumeLong());
        Behaviour behaviour = data.pickValue(Behaviour.values());
        Target target = Target.limited(behaviour, data.consumeLong(0, content.length + 64), random);
        String choice = data.pickValue(CHOICES);
        TransferOptions.Builder options =
                TransferOptions.builder().stallTimeout(STALL).bufferSize(data.consumeInt(1, 128 * 1024));
        if (choice.startsWith("exclude ")) {
            options.exclude(choice.substring(8));
        } else if (!choice.isEmpty()) {
            options.strategy(choice);
        }
        int position = verb == Verb.PATH ? 0 : data.consumeInt(0, content.length);
        int count = verb == Verb.PATH ? content.length : data.consumeInt(0, content.length - position);
        byte[] prefix = verb == Verb.PREFIX_AND_SLICE ? data.consumeBytes(300) : new byte[0];
        long cutAfter = data.consumeBoolean() ? data.consumeLong(0, prefix.length + count) : -1;
        int cutTo = data.consumeInt(0, content.length);

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
        byte[] model = new byte[prefix.length + count];
        System.arraycopy(prefix, 0, model, 0, prefix.length);
        System.arraycopy(content, position, model, prefix.length, count);
        try (OpenFile opened = OpenFile.open(path)) {
            assertThat(opened.openedNatively())
                    .as("opened natively (this run enables native access)")
                    .isTrue();
            FileChannel file = opened.channel();
            file.position(content.length / 2);
            try {
                long moved = switch (verb) {
                    case SLICE -> Transfers.copy(file, position, count, target, options.build());
                    case PREFIX_AND_SLICE ->
                        Transfers.copy(
                                FileRegion.of(file, position, count).withPrefix(ByteBuffer.wrap(prefix)),
                                target,
                                options.build());
                    case PATH -> Transfers.copy(path, target, options.build());
                };
                assertThat(moved).isEqualTo(model.length).isEqualTo(target.size());
            } catch (TruncatedSourceException e) {
                assertThat(cut[0]).as("truncated without a cut").isNotNegative();
                assertThat(cutTo).isLessThan(position + count);
                assertCounted(e, target, model, behaviour);
            } catch (TransferException e) {
                assertCounted(e, target, model, behaviour);
            }
            assertThat(file.isOpen()).as("the caller's file open").isTrue();
            assertThat(file.position()).as("the caller's file position").isEqualTo(content.length / 2);
        } finally {
            Files.delete(path);
        }
        assertThat(target.bytes()).isEqualTo(Arrays.copyOf(model, (int) target.size()));
    }

    private static void assertCounted(TransferException e, Target target, byte[] model, Behaviour behaviour) {
        assertThat(e.bytesTransferred()).as("count in %s", e).isEqualTo(target.size());
        assertThat(target.size()).isLessThanOrEqualTo(model.length);
        if (e instanceof TransferTimeoutException) {
            assertThat(behaviour).isIn(Behaviour.ZEROS_NOW_AND_THEN, Behaviour.STALL_AFTER_N);
        }
    }
}
