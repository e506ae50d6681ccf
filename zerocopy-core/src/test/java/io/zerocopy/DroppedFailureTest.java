package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the JDK's {@code transferTo} and {@code transferFrom} do to a channel they copy through a
 * buffer of their own: they return the bytes moved before a failure and drop the failure. A stream
 * that fails once must still fail the copy with the exact count, not have its bytes lost or sent
 * twice in silence; and {@code transferFrom}, which writes at explicit positions, must write a
 * region's body after its prefix.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DroppedFailureTest {
    static final long SEED = Long.getLong("zerocopy.seed", 0xD80FL);

    private static final int SIZE = 50_000;
    /** The stream fails at its third call, each of at most this many bytes: after two calls' bytes. */
    private static final int BUFFER = 8192;

    @TempDir
    Path dir;

    private final byte[] data = new byte[SIZE];

    {
        new Random(SEED).nextBytes(data);
    }

    @ParameterizedTest
    @ValueSource(strings = {"forced", "buffered excluded"})
    void transferFrom_streamFailingOnce_failsWithTheBytesBeforeIt(String how) throws IOException {
        Path target = dir.resolve("target");
        AtomicReference<String> strategy = new AtomicReference<>();
        TransferOptions.Builder options =
                TransferOptions.builder().bufferSize(BUFFER).listener(started(strategy));
        TransferOptions chosen = how.equals("forced")
                ? options.strategy("transferFrom").build()
                : options.exclude("buffered").build();
        InputStream failsOnce = failingAtThirdRead(new ByteArrayInputStream(data));

        try (FileOutputStream out = new FileOutputStream(target.toFile())) {
            assertThatThrownBy(() -> Transfers.copy(failsOnce, out, chosen))
                    .isInstanceOfSatisfying(TransferException.class, e -> {
                        assertThat(e.bytesTransferred()).isEqualTo(2 * BUFFER);
                        assertThat(e).hasRootCauseMessage("the third call fails");
                    });
        }
        assertThat(strategy.get()).isEqualTo("transferFrom");
        assertThat(Files.readAllBytes(target)).isEqualTo(Arrays.copyOf(data, 2 * BUFFER));
    }

    @Test
    void transferTo_streamFailingOnce_failsWithTheBytesBeforeIt() throws IOException {
        Path source = Files.write(dir.resolve("source"), data);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        AtomicReference<String> strategy = new AtomicReference<>();
        TransferOptions forced = TransferOptions.builder()
                .strategy("transferTo")
                .listener(started(strategy))
                .build();

        assertThatThrownBy(() -> Transfers.copy(source, failingAtThirdWrite(written), forced))
                .isInstanceOfSatisfying(TransferException.class, e -> {
                    assertThat(e.bytesTransferred()).isEqualTo(written.size());
                    assertThat(e).hasRootCauseMessage("the third call fails");
                });
        assertThat(strategy.get()).isEqualTo("transferTo");
        assertThat(written.toByteArray()).isEqualTo(Arrays.copyOf(data, written.size()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"forced", "buffered excluded"})
    void transferFrom_regionOfAnotherProvidersFile_writesTheBodyAfterThePrefix(String how) throws IOException {
        byte[] prefix = "HEAD:".getBytes(StandardCharsets.US_ASCII);
        Path target = Files.write(dir.resolve("target"), new byte[] {'>'});
        AtomicReference<String> strategy = new AtomicReference<>();
        TransferOptions.Builder options = TransferOptions.builder().listener(started(strategy));
        TransferOptions chosen = how.equals("forced")
                ? options.strategy("transferFrom").build()
                : options.exclude("buffered").build();
        URI zip = URI.create("jar:" + dir.resolve("files.zip").toUri());
        try (FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Path entry = Files.write(zipfs.getPath("/body"), data);
            try (FileChannel body = FileChannel.open(entry);
                    FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
                out.position(1);
                FileRegion region = FileRegion.of(body, 0, SIZE).withPrefix(ByteBuffer.wrap(prefix));

                assertThat(Transfers.copy(region, out, chosen)).isEqualTo(prefix.length + SIZE);
                assertThat(out.position()).isEqualTo(1 + prefix.length + SIZE);
            }
        }
        assertThat(strategy.get()).isEqualTo("transferFrom");
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write('>');
        expected.write(prefix);
        expected.write(data);
        assertThat(Files.readAllBytes(target)).isEqualTo(expected.toByteArray());
    }

    private static TransferListener started(AtomicReference<String> strategy) {
        return new TransferListener() {
            @Override
            public void onStart(String name, long count) {
                strategy.set(name);
            }
        };
    }

    /** An input stream whose third read fails, reading nothing; its other reads go through. */
    private static InputStream failingAtThirdRead(InputStream in) {
        return new InputStream() {
            private int calls;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (++calls == 3) {
                    throw new IOException("the third call fails");
                }
                return in.read(b, off, len);
            }
        };
    }

    /** An output stream whose third write fails, writing nothing; its other writes go through. */
    private static OutputStream failingAtThirdWrite(OutputStream out) {
        return new OutputStream() {
            private int calls;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (++calls == 3) {
                    throw new IOException("the third call fails");
                }
                out.write(b, off, len);
            }
        };
    }
}
