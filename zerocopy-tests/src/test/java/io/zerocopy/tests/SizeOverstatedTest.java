package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sysfs attribute reports a size of 4096 and holds a few bytes. transferTo returns 0 for ever at
 * its real end, which must be told apart from a slow target: the copy fails at once with a
 * {@link TransferException} that says so, not after the stall timeout and not as a truncation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SizeOverstatedTest {

    private static final Path SYSFS_FILE = Path.of("/sys/class/net/lo/mtu");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "transferTo", "buffered"}) // sysfs cannot be mapped at all: ENODEV
    void copy_fileWhoseContentEndsBeforeItsSize(String strategy) throws IOException {
        assumeTrue(Files.isReadable(SYSFS_FILE), "needs Linux sysfs");
        long size = Files.size(SYSFS_FILE);
        long content = Files.readAllBytes(SYSFS_FILE).length;
        assumeTrue(content < size, "the sysfs file's size overstates its content here");
        TransferOptions.Builder options = TransferOptions.builder().stallTimeout(Duration.ofMinutes(10));
        var copier = (strategy.equals("auto") ? options : options.strategy(strategy)).build();

        for (var copy : new ThrowingCopy[] {
            () -> Transfers.copy(SYSFS_FILE, dir.resolve("copy"), copier),
            () -> Transfers.copy(SYSFS_FILE, new ByteArrayOutputStream(), copier)
        }) {
            assertThatThrownBy(copy::run)
                    .isExactlyInstanceOf(TransferException.class)
                    .isNotInstanceOfAny(TransferTimeoutException.class, TruncatedSourceException.class)
                    .hasMessageContaining("size still reads " + size)
                    .satisfies(e -> assertThat(((TransferException) e).bytesTransferred())
                            .isEqualTo(content));
        }
        assertThat(Files.exists(dir.resolve("copy")))
                .as("the partial target is deleted")
                .isFalse();
    }

    interface ThrowingCopy {
        long run() throws IOException;
    }
}
