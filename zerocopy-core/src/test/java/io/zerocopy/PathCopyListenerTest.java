package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copy(Path, Path)} and its listener: an exception the listener throws aborts the copy, and
 * the partial target is deleted, except one from {@code onComplete}, which comes after the last
 * byte: the target is whole and stays, with its attributes. Before the fix that target was deleted
 * too, after the listener had heard it complete, and with {@code REPLACE_EXISTING} the file it
 * replaced was gone as well.
 */
class PathCopyListenerTest {
    private static final byte[] DATA = bytes(100_000);

    @TempDir
    Path dir;

    @Test
    void onCompleteThrows_theWholeTargetIsKept_andTheExceptionThrownAsItIs() throws IOException {
        Path source = Files.write(dir.resolve("source"), DATA);
        Path target = Files.writeString(dir.resolve("target"), "the file the copy replaces");
        IllegalStateException thrown = new IllegalStateException("the listener's own");

        assertThatThrownBy(() ->
                        Transfers.copy(source, target, throwingOnComplete(thrown), StandardCopyOption.REPLACE_EXISTING))
                .isSameAs(thrown);
        assertThat(Files.readAllBytes(target)).isEqualTo(DATA);
    }

    @Test
    void onCompleteThrowsAnError_theTargetIsKept_withItsAttributes() throws IOException {
        Path source = Files.write(dir.resolve("source"), DATA);
        FileTime modified = FileTime.from(Instant.parse("2001-02-03T04:05:06Z"));
        Files.setLastModifiedTime(source, modified);
        Path target = dir.resolve("target");
        Error thrown = new Error("the listener's own");

        assertThatThrownBy(() ->
                        Transfers.copy(source, target, throwingOnComplete(thrown), StandardCopyOption.COPY_ATTRIBUTES))
                .isSameAs(thrown);
        assertThat(Files.readAllBytes(target)).isEqualTo(DATA);
        assertThat(Files.getLastModifiedTime(target)).isEqualTo(modified);
    }

    @Test
    void onProgressThrows_theCopyIsAborted_andItsTargetDeleted() throws IOException {
        Path source = Files.write(dir.resolve("source"), DATA);
        Path target = dir.resolve("target");
        IllegalStateException thrown = new IllegalStateException("the listener's own");
        TransferOptions options = TransferOptions.builder()
                .listener(new TransferListener() {
                    @Override
                    public void onProgress(long bytesSoFar) {
                        throw thrown;
                    }
                })
                .build();

        assertThatThrownBy(() -> Transfers.copy(source, target, options)).isSameAs(thrown);
        assertThat(target).doesNotExist();
    }

    private static byte[] bytes(int size) {
        byte[] data = new byte[size];
        new Random(46).nextBytes(data);
        return data;
    }

    private static TransferOptions throwingOnComplete(Throwable thrown) {
        return TransferOptions.builder()
                .listener(new TransferListener() {
                    @Override
                    public void onComplete(TransferResult result) {
                        if (thrown instanceof Error error) {
                            throw error;
                        }
                        throw (RuntimeException) thrown;
                    }
                })
                .build();
    }
}
