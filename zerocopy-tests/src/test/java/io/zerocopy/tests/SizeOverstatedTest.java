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
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
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
 * its real end, which must be told apart from a slow target. A verb that promises the size taken at
 * the start fails at once with a {@link TransferException} that says so, not after the stall
 * timeout and not as a truncation; one that copies until the end stops there, as
 * {@code InputStream.transferTo} and {@code Files.copy} do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SizeOverstatedTest {

    private static final Path SYSFS_FILE = Path.of("/sys/class/net/lo/mtu");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "transferTo", "buffered"}) // sysfs cannot be mapped at all: ENODEV
    void copy_ofTheSize_fileWhoseContentEndsBeforeItsSize_fails(String strategy) throws IOException {
        byte[] content = overstated();
        long size = Files.size(SYSFS_FILE);
        TransferOptions copier = copier(strategy);

        try (FileChannel file = FileChannel.open(SYSFS_FILE)) {
            for (var copy : new ThrowingCopy[] {
                () -> Transfers.copy(SYSFS_FILE, new ByteArrayOutputStream(), copier),
                () -> Transfers.copy(file, 0, size, Channels.newChannel(new ByteArrayOutputStream()), copier)
            }) {
                assertThatThrownBy(copy::run)
                        .isExactlyInstanceOf(TransferException.class)
                        .isNotInstanceOfAny(TransferTimeoutException.class, TruncatedSourceException.class)
                        .hasMessageContaining("size still reads " + size)
                        .satisfies(e -> assertThat(((TransferException) e).bytesTransferred())
                                .isEqualTo(content.length));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "transferTo", "buffered"})
    void copy_untilTheEnd_fileWhoseContentEndsBeforeItsSize_copiesTheContent(String strategy) throws IOException {
        byte[] content = overstated();
        TransferOptions copier = copier(strategy);
        ByteArrayOutputStream fromStream = new ByteArrayOutputStream();
        ByteArrayOutputStream fromChannel = new ByteArrayOutputStream();

        assertThat(Transfers.copy(SYSFS_FILE, dir.resolve("copy"), copier))
                .as("Path to Path")
                .isEqualTo(content.length);
        try (InputStream in = new FileInputStream(SYSFS_FILE.toFile());
                FileChannel file = FileChannel.open(SYSFS_FILE)) {
            assertThat(Transfers.copy(in, fromStream, copier))
                    .as("stream to stream")
                    .isEqualTo(content.length);
            assertThat(Transfers.copy(file, Channels.newChannel(fromChannel), copier))
                    .as("channel to channel")
                    .isEqualTo(content.length);
            assertThat(file.position()).as("the channel's position").isEqualTo(content.length);
        }

        assertThat(Files.readAllBytes(dir.resolve("copy"))).isEqualTo(content);
        assertThat(fromStream.toByteArray()).isEqualTo(content);
        assertThat(fromChannel.toByteArray()).isEqualTo(content);
    }

    /** The sysfs file's content, where its size overstates it; else the test is skipped. */
    private static byte[] overstated() throws IOException {
        assumeTrue(Files.isReadable(SYSFS_FILE), "needs Linux sysfs");
        byte[] content = Files.readAllBytes(SYSFS_FILE);
        assumeTrue(content.length < Files.size(SYSFS_FILE), "the sysfs file's size overstates its content here");
        return content;
    }

    private static TransferOptions copier(String strategy) {
        TransferOptions.Builder options = TransferOptions.builder().stallTimeout(Duration.ofMinutes(10));
        return (strategy.equals("auto") ? options : options.strategy(strategy)).build();
    }

    interface ThrowingCopy {
        long run() throws IOException;
    }
}
