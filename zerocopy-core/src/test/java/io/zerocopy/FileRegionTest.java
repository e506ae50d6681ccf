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

/**
 * A region's arguments: with a prefix it fails on a bad slice as a bare slice does, naming the
 * caller's values, before a byte moves; a prefix takes each buffer once.
 */
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

    /**
     * The same buffer twice has no one meaning once a write is short (a gathering write sets each
     * slot's position on its own), so withPrefix refuses it; a duplicate is a buffer of its own.
     */
    @Test
    void withPrefix_sameBufferTwice_refused_aDuplicateIsSentTwice() throws Exception {
        byte[] body = {'b', 'o', 'd', 'y', '!'};
        Path file = Files.write(dir.resolve("source"), body);
        ByteBuffer head = prefix();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FileChannel fc = FileChannel.open(file)) {
            FileRegion region = FileRegion.of(fc, 0, body.length);

            assertThatThrownBy(() -> region.withPrefix(head, ByteBuffer.allocate(1), head))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("prefix[2]: the same buffer as prefix[0] (expected: ");
            long moved = Transfers.copy(region.withPrefix(head, head.duplicate()), Channels.newChannel(out));

            assertThat(moved).isEqualTo(13);
            assertThat(out.toString("US-ASCII")).isEqualTo("headheadbody!");
        }
    }

    private static ByteBuffer prefix() {
        return ByteBuffer.wrap(new byte[] {'h', 'e', 'a', 'd'});
    }
}
