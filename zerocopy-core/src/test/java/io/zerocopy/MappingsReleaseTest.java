package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mmap strategy unmaps each window as soon as it moves past it, without waiting for the garbage
 * collector: checked against the kernel's own list of this process's mappings, /proc/self/maps.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MappingsReleaseTest {

    private static final int WINDOW = 16 * 1024;
    private static final int FILE_SIZE = 10 * WINDOW + 123;

    @TempDir
    Path dir;

    private final Random random = new Random(Long.getLong("zerocopy.seed", 0x3A9L));

    @BeforeEach
    void linuxOnly() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"),
                "needs /proc/self/maps");
    }

    @Test
    void copy_mmapOverSeveralWindows_leavesNoMappingBehind() throws IOException {
        byte[] data = randomBytes(FILE_SIZE);
        Path file = Files.write(dir.resolve("mapped.bin"), data);
        String path = file.toRealPath().toString();
        int[] most = {0};
        Target target =
                Target.of(Behaviour.RANDOM_SHORT, random).hook(total -> most[0] = Math.max(most[0], mappingsOf(path)));
        TransferOptions options = TransferOptions.builder()
                .strategy(MappedStrategy.NAME)
                .mappedWindow(WINDOW)
                .build();

        long moved;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            moved = Transfers.copy(in, 0, data.length, target, options);
            // Still open, so a mapping left behind could not be blamed on the file being closed.
            assertThat(mappingsOf(path))
                    .as("mappings of the file after the copy")
                    .isZero();
        }

        assertThat(moved).isEqualTo(data.length);
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), data);
        // The check can see a mapping at all, and never more than the one window in use.
        assertThat(most[0]).as("most mappings of the file seen during the copy").isEqualTo(1);
    }

    @Test
    void copy_mmapFailingPartWay_leavesNoMappingBehind() throws IOException {
        byte[] data = randomBytes(FILE_SIZE);
        Path file = Files.write(dir.resolve("mapped.bin"), data);
        String path = file.toRealPath().toString();
        Target target = Target.limited(Behaviour.FAIL_AFTER_N, 3 * WINDOW + 77, random);
        TransferOptions options = TransferOptions.builder()
                .strategy(MappedStrategy.NAME)
                .mappedWindow(WINDOW)
                .build();

        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            TransferException e =
                    assertThrows(TransferException.class, () -> Transfers.copy(in, 0, data.length, target, options));

            assertThat(e.bytesTransferred()).isEqualTo(3 * WINDOW + 77);
            assertThat(mappingsOf(path))
                    .as("mappings of the file after the failed copy")
                    .isZero();
        }
        ByteArrays.assertSameBytes("bytes at the target", target.bytes(), Arrays.copyOf(data, 3 * WINDOW + 77));
    }

    /** Lines of /proc/self/maps that map {@code path}. */
    private static int mappingsOf(String path) throws IOException {
        return (int) Files.readAllLines(Paths.get("/proc/self/maps")).stream()
                .filter(line -> line.endsWith(" " + path))
                .count();
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
