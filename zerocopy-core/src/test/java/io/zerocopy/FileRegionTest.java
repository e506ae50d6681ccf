package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A region with a prefix fails on the caller's arguments as a bare slice does, naming them, before a byte moves. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FileRegionTest {

    @TempDir
    Path dir;

    @Test
    void region_withPrefix_pastTheLargestPosition_namesTheCallersPosition() throws Exception {
        Path file = Files.write(dir.resolve("source"), new byte[1000]);
        long position = Long.MAX_VALUE - 10;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel target = Channels.newChannel(out);
        try (FileChannel fc = FileChannel.open(file)) {
            for (FileRegion region : new FileRegion[] {
                FileRegion.of(fc, position, 100_000),
                FileRegion.of(fc, position, 100_000).withPrefix(prefix())
            }) {
                assertThatThrownBy(() -> Transfers.copy(region, target))
                        .as("%s", region)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("position: " + position + " (expected: <= file size 1000)");
            }
        }
        assertThat(out.size()).as("bytes written").isZero();
    }

    private static ByteBuffer prefix() {
        return ByteBuffer.wrap(new byte[] {'h', 'e', 'a', 'd'});
    }
}
