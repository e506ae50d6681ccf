package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code native} row of the selection table and its step, on the Java 17 classes, with a
 * {@link FakeNativeFile} as the file the library opened (the Java 22 part that opens one natively is
 * tested in zerocopy-tests): it serves such a file and no other, excluded it leaves the file to the
 * rows below, and with a prefix the whole body goes in one gathering write.
 */
class NativeStrategyTest {
    @TempDir
    Path dir;

    private byte[] data;
    private FakeNativeFile opened;

    @BeforeEach
    void openFile() throws IOException {
        data = new byte[10_000];
        new Random(35).nextBytes(data);
        opened = new FakeNativeFile(Files.write(dir.resolve("source"), data));
    }

    @AfterEach
    void closeFile() throws IOException {
        opened.close();
    }

    private TransferFacts nativeFacts(WritableByteChannel target, long prefixBytes) {
        return nativeFacts(opened, target, prefixBytes);
    }

    private TransferFacts nativeFacts(NativeFile file, WritableByteChannel target, long prefixBytes) {
        TransferRequest request = TransferRequest.builder()
                .source(new FileSliceChannel(file, 0, data.length), ChannelKind.OTHER)
                .count(data.length)
                .target(target, ChannelKind.SOCKET)
                .build();
        Platform linux = Platform.of(Platform.OperatingSystem.LINUX, 25, "6.18.44-fc");
        return new TransferFacts(
                request, Peers.Peer.THIS_HOST_IPV4, TransferOptions.defaults(), linux, false, prefixBytes, 0);
    }

    /** Opens the choice's step and moves until it has moved the data or moves nothing; returns the bytes moved. */
    private long moveAll(Choice choice, TransferFacts facts) throws IOException {
        long moved = 0;
        try (TransferStep step = choice.open(facts)) {
            for (long n; moved < data.length && (n = step.move(moved, data.length - moved)) > 0; ) {
                moved += n;
            }
        }
        return moved;
    }

    @Test
    void aFileOpenedNatively_goesByNative_andEveryByteArrives() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel target = Channels.newChannel(out);
        TransferFacts facts = nativeFacts(target, 0);
        Choice choice = new Selection(java.util.List.of(), null, Set.of()).choose(facts, null, null);
        assertThat(choice.strategy.name()).isEqualTo(NativeStrategy.NAME);
        assertThat(choice.reason()).contains("opened natively").contains("pread");
        assertThat(moveAll(choice, facts)).isEqualTo(data.length);
        assertThat(out.toByteArray()).isEqualTo(data);
    }

    @Test
    void aFileThatGoesByOneRead_isCheckedByThatRead_andItsStepSendsWhatItRead() throws IOException {
        AtomicInteger reads = new AtomicInteger();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FakeNativeFile counted = new FakeNativeFile(dir.resolve("source")) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                reads.incrementAndGet();
                return super.read(dst, position);
            }
        }) {
            TransferFacts facts = nativeFacts(counted, Channels.newChannel(out), 0);
            Choice choice = new Selection(java.util.List.of(), null, Set.of()).choose(facts, null, null);
            assertThat(choice.strategy.name()).isEqualTo(NativeStrategy.NAME);
            assertThat(choice.readsAhead()).isTrue();
            assertThat(choice.readAhead()).isEqualTo(data.length);
            assertThat(moveAll(choice, facts)).isEqualTo(data.length);
        }
        assertThat(out.toByteArray()).isEqualTo(data);
        assertThat(reads).hasValue(1);
    }

    @Test
    void withAPrefix_theWholeBodyGoesWithIt() {
        TransferFacts facts = nativeFacts(Channels.newChannel(new ByteArrayOutputStream()), 17);
        Choice choice = Selections.choose(facts, null, Set.of(), null, null);
        assertThat(choice.strategy.name()).isEqualTo(NativeStrategy.NAME);
        assertThat(choice.goesWithPrefix()).isTrue();
    }

    @Test
    void excluded_leavesTheFileToTheRowsBelow() {
        TransferFacts facts = nativeFacts(Channels.newChannel(new ByteArrayOutputStream()), 0);
        assertThat(Selections.choose(facts, null, Set.of(NativeStrategy.NAME), null, null)
                        .strategy
                        .name())
                .isEqualTo(BufferedStrategy.NAME);
        assertThat(Selections.choose(facts, null, Set.of(), null, NativeStrategy.NAME)
                        .strategy
                        .name())
                .isEqualTo(BufferedStrategy.NAME);
    }

    @Test
    void aJdkFile_isRefusedWithTheReason() throws IOException {
        try (FileChannel file = FileChannel.open(dir.resolve("source"), StandardOpenOption.READ)) {
            TransferRequest request = TransferRequest.builder()
                    .source(file, ChannelKind.FILE)
                    .slice(0, data.length)
                    .target(Channels.newChannel(new ByteArrayOutputStream()), ChannelKind.OTHER)
                    .build();
            assertThat(NativeStrategy.INSTANCE.supports(request).supported()).isFalse();
            assertThat(NativeStrategy.INSTANCE.supports(request).reason()).contains("opened itself");
        }
    }

    @Test
    void theFile_readsByPositionAndSizesLikeAFileChannel() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(100);
        assertThat(opened.read(b, 9_950)).isEqualTo(50);
        assertThat(opened.read(b, 10_000)).isEqualTo(-1);
        assertThat(opened.position(9_990).read(ByteBuffer.allocate(100))).isEqualTo(10);
        assertThat(opened.position()).isEqualTo(10_000);
        assertThat(opened.size()).isEqualTo(data.length);
    }
}
