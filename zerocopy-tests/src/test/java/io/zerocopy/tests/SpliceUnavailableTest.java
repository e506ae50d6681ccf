package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a JVM started without {@code --add-exports}/{@code --add-opens} and
 * {@code --enable-native-access} (the default surefire execution), the splice strategy declines
 * and says what is missing; on Java 17 to 21 it says it needs Java 22. The automatic choice then
 * copies with the buffered strategy, and nothing is printed on the way (no restricted-method
 * warning from the JVM).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpliceUnavailableTest {
    private static final boolean JAVA_22 = Runtime.version().feature() >= 22;

    @TempDir
    Path dir;

    @Test
    void forced_socketToSocket_saysWhichFlagIsMissing() throws Exception {
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            assertThatThrownBy(() -> Transfers.copy(
                            (ReadableByteChannel) source.near(),
                            target.near(),
                            TransferOptions.builder().strategy("splice").build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(JAVA_22 ? "--add-exports java.base/sun.nio.ch=ALL-UNNAMED" : "needs Java 22");
        }
    }

    @Test
    void forced_socketToFile_saysWhichFlagIsMissing() throws Exception {
        try (Connection source = Connection.open();
                FileChannel target =
                        FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            assertThatThrownBy(() -> Transfers.copy(
                            (ReadableByteChannel) source.near(),
                            target,
                            TransferOptions.builder().strategy("splice").build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(JAVA_22 ? "--add-opens java.base/sun.nio.ch=ALL-UNNAMED" : "needs Java 22");
        }
    }

    @Test
    void automatic_socketToSocket_fallsBackQuietly() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        RecordingListener listener = new RecordingListener();
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            source.send(new byte[100_000], true);
            System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                long copied = Transfers.copy(
                        (ReadableByteChannel) source.near(),
                        target.near(),
                        TransferOptions.builder().listener(listener).build());
                assertThat(copied).isEqualTo(100_000);
            } finally {
                System.setErr(err);
            }
            assertThat(target.receive(100_000)).hasSize(100_000);
        }
        assertThat(listener.strategy()).isEqualTo("buffered");
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .as("printed to stderr")
                .doesNotContain("WARNING");
    }
}
