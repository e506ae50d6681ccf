package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One debug line per transfer naming the strategy and why, and nothing above debug when
 * transfers succeed. Runs in its own JVM (see this module's POM) with
 * {@code org.slf4j.simpleLogger.log.io.zerocopy=debug}; slf4j-simple writes to the current
 * {@code System.err}, which the test captures.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoggingTest {

    @TempDir
    Path dir;

    @Test
    void copy_logsOneDebugLinePerTransferWithStrategyAndReason() throws Exception {
        byte[] content = TestFiles.randomBytes(200_000, 7);
        Path source = TestFiles.write(dir.resolve("source"), content);
        List<TransferResult> results = new ArrayList<>();
        TransferListener listener = new TransferListener() {
            @Override
            public void onComplete(TransferResult result) {
                results.add(result);
            }
        };
        var options = TransferOptions.builder().listener(listener).build();

        List<String> lines = captureStandardError(() -> {
            Transfers.copy(source, dir.resolve("copy"), options);
            Transfers.copy(new ByteArrayInputStream(content), new ByteArrayOutputStream(), options);
            try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                    var socket = receiver.connectChannel()) {
                Transfers.copy(source, socket, options);
            }
        });

        List<String> ours =
                lines.stream().filter(l -> l.contains("io.zerocopy")).collect(Collectors.toList());
        assertThat(results).hasSize(3);
        assertThat(ours).as("log lines from io.zerocopy").hasSize(3);
        for (int i = 0; i < 3; i++) {
            TransferResult result = results.get(i);
            assertThat(ours.get(i))
                    .contains(" DEBUG io.zerocopy.Transfers - ")
                    .contains("via " + result.strategy() + ": " + result.reason());
        }
        assertThat(results.get(0).strategy()).isEqualTo("transferTo");
        assertThat(results.get(0).reason()).containsAnyOf("sendfile", "copy_file_range");
        assertThat(results.get(1).strategy()).isEqualTo("buffered");
        assertThat(results.get(2).strategy()).isEqualTo(TestFiles.DEFAULT_FILE_TO_SOCKET);
        assertThat(results.get(2).reason())
                .contains("peer on this host", "CPU per byte")
                .doesNotContain("docs/");
        assertThat(lines).noneMatch(l -> l.contains(" INFO ") || l.contains(" WARN ") || l.contains(" ERROR "));
    }

    interface Action {
        void run() throws Exception;
    }

    private static List<String> captureStandardError(Action action) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        original.print(text); // still visible in the test report
        return Arrays.asList(text.split("\\R"));
    }
}
