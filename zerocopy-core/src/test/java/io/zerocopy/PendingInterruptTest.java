package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.InterruptedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread that is already interrupted when it calls {@code copy}: nothing is touched (a JDK file
 * channel would close itself on the first call), the caller gets a {@link TransferException} caused
 * by {@link InterruptedIOException}, and the interrupt status stays set.
 */
class PendingInterruptTest {

    @TempDir
    Path dir;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void copy_calledWhileInterrupted_touchesNothing() throws Exception {
        Path source = Files.write(dir.resolve("source"), new byte[100_000]);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        WritableByteChannel target = Channels.newChannel(sink);
        try (FileChannel file = FileChannel.open(source, StandardOpenOption.READ)) {
            file.position(10);

            Thread.currentThread().interrupt();
            TransferException slice = assertThrows(TransferException.class, () -> Transfers.copy(file, 0, 100, target));
            TransferException channel =
                    assertThrows(TransferException.class, () -> Transfers.copy((ReadableByteChannel) file, target));
            TransferException path = assertThrows(TransferException.class, () -> Transfers.copy(source, target));

            for (TransferException e : new TransferException[] {slice, channel, path}) {
                assertThat(e.getCause()).isInstanceOf(InterruptedIOException.class);
                assertThat(e.bytesTransferred()).isZero();
            }
            assertThat(Thread.currentThread().isInterrupted())
                    .as("interrupt status kept")
                    .isTrue();
            Thread.interrupted();
            assertThat(file.isOpen()).as("the caller's channel is not closed").isTrue();
            assertThat(file.position()).isEqualTo(10);
        }
        assertThat(sink.size()).isZero();
    }
}
