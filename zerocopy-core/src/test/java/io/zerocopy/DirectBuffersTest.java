package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectBuffersTest {

    @Test
    void release_smallBuffersDoNotCrowdOutTheUsualSize() {
        List<ByteBuffer> small = new ArrayList<>();
        for (int i = 0; i < DirectBuffers.SLOTS; i++) {
            small.add(ByteBuffer.allocateDirect(1024));
        }
        small.forEach(DirectBuffers::release); // every slot now holds a 1 KiB buffer

        ByteBuffer usual = DirectBuffers.acquire(256 * 1024);
        assertThat(small).noneMatch(b -> b == usual);
        DirectBuffers.release(usual);

        assertThat(DirectBuffers.acquire(256 * 1024)).as("the released 256 KiB buffer is reused").isSameAs(usual);
    }

    @Test
    void acquire_returnsAClearedBufferAtLeastAsLargeAsAsked() {
        ByteBuffer b = DirectBuffers.acquire(4096);
        b.position(100).limit(200);
        DirectBuffers.release(b);

        ByteBuffer again = DirectBuffers.acquire(4096);
        assertThat(again.isDirect()).isTrue();
        assertThat(again.capacity()).isGreaterThanOrEqualTo(4096);
        assertThat(again.position()).isZero();
        assertThat(again.limit()).isEqualTo(again.capacity());
        DirectBuffers.release(again);
    }

    @Test
    void release_neverKeepsBuffersAboveTheLimit() {
        ByteBuffer big = ByteBuffer.allocateDirect(DirectBuffers.MAX_POOLED_BYTES + 1);
        DirectBuffers.release(big);

        ByteBuffer next = DirectBuffers.acquire(DirectBuffers.MAX_POOLED_BYTES + 1);
        assertThat(next).isNotSameAs(big);
    }

    @Test
    void bufferedStrategy_largeBufferSizeAllocatesOnlyWhatTheTransferNeeds() throws Exception {
        Path file = Files.createTempFile("tiny", ".bin");
        try {
            Files.write(file, new byte[10]);
            try (FileChannel in = FileChannel.open(file)) {
                TransferRequest request = TransferRequest.builder()
                        .source(in, ChannelKind.FILE)
                        .slice(0, 10)
                        .target(Channels.newChannel(OutputStream.nullOutputStream()),
                                ChannelKind.OTHER)
                        .bufferSize(512 << 20)
                        .build();
                try (TransferStep step = BufferedStrategy.INSTANCE.open(request)) {
                    // a pooled buffer may serve it; never one of the 512 MiB asked for
                    long capacity = Long.parseLong(step.toString().replaceAll("\\D+", ""));
                    assertThat(capacity).as("buffer capacity").isBetween(10L, (long) DirectBuffers.MAX_POOLED_BYTES);
                    assertThat(step.move(0, 10)).isEqualTo(10);
                }
            }
        } finally {
            Files.delete(file);
        }
    }
}
