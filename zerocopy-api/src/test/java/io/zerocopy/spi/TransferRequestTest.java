package io.zerocopy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TransferRequest.Builder}: defaults, and every way a request can be malformed. */
class TransferRequestTest {

    @TempDir
    Path dir;

    private FileChannel file;
    private FileChannel otherFile;
    private final ReadableByteChannel stream = new NullSource();
    private final WritableByteChannel sink = new NullSink();

    @BeforeEach
    void openFiles() throws IOException {
        file = FileChannel.open(Files.createFile(dir.resolve("source")), StandardOpenOption.READ);
        otherFile = FileChannel.open(Files.createFile(dir.resolve("target")), StandardOpenOption.WRITE);
    }

    @AfterEach
    void closeFiles() throws IOException {
        file.close();
        otherFile.close();
    }

    private TransferRequest.Builder fileToSink() {
        return TransferRequest.builder()
                .source(file, ChannelKind.FILE)
                .target(sink, ChannelKind.OTHER)
                .slice(0, 10);
    }

    @Test
    void builder_defaults() {
        TransferRequest r = TransferRequest.builder()
                .source(stream, ChannelKind.OTHER)
                .target(sink, ChannelKind.OTHER)
                .build();

        assertThat(r.position()).isZero();
        assertThat(r.count()).isEqualTo(-1);
        assertThat(r.source()).isSameAs(stream);
        assertThat(r.target()).isSameAs(sink);
        assertThat(r.sourceKind()).isEqualTo(ChannelKind.OTHER);
        assertThat(r.targetKind()).isEqualTo(ChannelKind.OTHER);
        assertThat(r.targetNonBlocking()).isFalse();
        assertThat(r.sourceNonBlocking()).isFalse();
    }

    @Test
    void builder_keepsWhatItWasGiven() {
        TransferRequest r = TransferRequest.builder()
                .source(file, ChannelKind.FILE)
                .target(otherFile, ChannelKind.FILE)
                .slice(7, 5_000_000_000L)
                .build();

        assertThat(r.position()).isEqualTo(7);
        assertThat(r.count()).isEqualTo(5_000_000_000L);
        assertThat(r.sourceFile()).isSameAs(file);
        assertThat(r.targetFile()).isSameAs(otherFile);
    }

    @Test
    void build_fileKindNeedsFileChannel() {
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, ChannelKind.FILE)
                        .target(sink, ChannelKind.OTHER)
                        .slice(0, 1)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("source: ")
                .hasMessageContaining("expected: a FileChannel");
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, ChannelKind.OTHER)
                        .target(sink, ChannelKind.FILE)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("target: ")
                .hasMessageContaining("expected: a FileChannel");
    }

    @Test
    void builder_missingPartsThrowNpeNamingThem() {
        assertThatThrownBy(() -> TransferRequest.builder()
                        .target(sink, ChannelKind.OTHER)
                        .build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("source");
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, null)
                        .target(sink, ChannelKind.OTHER)
                        .build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("sourceKind");
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, ChannelKind.OTHER)
                        .build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("target");
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, ChannelKind.OTHER)
                        .target(sink, null)
                        .build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("targetKind");
    }

    @Test
    void build_fileSourceNeedsNonNegativeSlice() {
        assertThatThrownBy(() -> fileToSink().slice(0, -1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count: -1 (expected: >= 0)");
        assertThatThrownBy(() -> fileToSink().slice(-1, 10).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("position: -1 (expected: >= 0)");
        // a FILE source without slice() keeps the "until end of stream" count, which is not allowed
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(file, ChannelKind.FILE)
                        .target(sink, ChannelKind.OTHER)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("count: -1 ");
        assertThat(fileToSink().slice(0, 0).build().count()).isZero();
        assertThat(fileToSink().slice(Long.MAX_VALUE, 0).build().position()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void build_otherSourceRunsToEndOfStreamOrTakesAnExactCount() {
        TransferRequest exact = TransferRequest.builder()
                .source(stream, ChannelKind.SOCKET)
                .target(sink, ChannelKind.OTHER)
                .count(10)
                .build();
        assertThat(exact.count()).isEqualTo(10);
        assertThat(exact.position()).isZero();
        assertThat(exact).hasToString("SOCKET -> OTHER, exactly 10 bytes");
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, ChannelKind.SOCKET)
                        .target(sink, ChannelKind.OTHER)
                        .count(-2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count: -2 (expected: >= -1 for a source that is not a FILE)");
        assertThatThrownBy(() -> TransferRequest.builder()
                        .source(stream, ChannelKind.PIPE)
                        .target(sink, ChannelKind.OTHER)
                        .slice(5, -1)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("position: 5 (expected: 0 for a source that is not a FILE)");
        // a FileChannel described as OTHER (procfs files) is read as a stream too
        assertThat(TransferRequest.builder()
                        .source(file, ChannelKind.OTHER)
                        .target(sink, ChannelKind.OTHER)
                        .build()
                        .count())
                .isEqualTo(-1);
    }

    @Test
    void sourceFileAndTargetFile_onlyForFileKinds() {
        TransferRequest r = TransferRequest.builder()
                .source(stream, ChannelKind.SOCKET)
                .target(sink, ChannelKind.PIPE)
                .build();

        assertThatThrownBy(r::sourceFile)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SOCKET");
        assertThatThrownBy(r::targetFile)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PIPE");
    }

    @Test
    void nonBlocking_followsTheChannelsMode() throws IOException {
        Pipe pipe = Pipe.open();
        try {
            pipe.sink().configureBlocking(false);
            TransferRequest r = TransferRequest.builder()
                    .source(pipe.source(), ChannelKind.PIPE)
                    .target(pipe.sink(), ChannelKind.PIPE)
                    .build();

            assertThat(r.targetNonBlocking()).isTrue();
            assertThat(r.sourceNonBlocking()).isFalse();
            assertThat(r.toString()).contains("PIPE -> PIPE", "non-blocking", "until end of stream");

            pipe.source().configureBlocking(false);
            pipe.sink().configureBlocking(true);
            assertThat(r.sourceNonBlocking()).isTrue();
            assertThat(r.targetNonBlocking()).isFalse();
        } finally {
            pipe.source().close();
            pipe.sink().close();
        }
    }

    @Test
    void toString_describesTheSlice() {
        assertThat(fileToSink().slice(3, 10).build().toString())
                .contains("FILE -> OTHER", "10 bytes from 3")
                .doesNotContain("non-blocking");
    }

    private static final class NullSource implements ReadableByteChannel {
        @Override
        public int read(ByteBuffer dst) {
            return -1;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    private static final class NullSink implements WritableByteChannel {
        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
