package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.testing.AdversarialChannels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flight recorder event of a transfer ({@link TransferEvent}): a recording reads back one event
 * per transfer of every verb, agreeing with its {@link TransferResult} on strategy and bytes, and a
 * failure's event carries the exact count of its {@link TransferException}; without a recording no
 * event object exists.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransferEventTest {
    private static final int SIZE = 300_000;

    @TempDir
    Path dir;

    @Test
    void begin_withoutRecording_makesNoEvent() {
        assertThat(TransferEvents.begin()).isNull();
    }

    @Test
    void events_agreeWithResults_forEveryVerb() throws Exception {
        byte[] data = new byte[SIZE];
        new Random(20).nextBytes(data);
        Path source = Files.write(dir.resolve("source"), data);
        List<TransferResult> results = new CopyOnWriteArrayList<>();
        TransferOptions options = TransferOptions.builder()
                .listener(new TransferListener() {
                    @Override
                    public void onComplete(TransferResult result) {
                        results.add(result);
                    }
                })
                .build();

        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable(TransferEvent.NAME);
            recording.start();
            Transfers.copy(source, dir.resolve("copy"), options);
            try (FileChannel file = FileChannel.open(source, StandardOpenOption.READ);
                    FileChannel out = FileChannel.open(
                            dir.resolve("out"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                Transfers.copy(file, 7, 4096, out, options);
                Transfers.copy(file, 0, 60_000, out, options);
                Transfers.copy(
                        FileRegion.of(file, 10, 1000)
                                .withPrefix(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {1, 2, 3})}),
                        out,
                        options);
                Transfers.copy(Channels.newChannel(Files.newInputStream(source)), out, options);
                Transfers.copy(Channels.newChannel(Files.newInputStream(source)), 5000, out, options);
                try (Transfer handle = Transfers.open(FileRegion.of(file, 100, 200), out, options)) {
                    while (!handle.isDone()) {
                        handle.advance();
                    }
                }
            }
            try (LoopbackPair pair = LoopbackPair.open()) {
                CompletableFuture<byte[]> received = pair.drainInBackground();
                Transfers.copy(source, (WritableByteChannel) pair.sender, options);
                Transfers.copyAsync(source, pair.sender, task -> new Thread(task).start(), options)
                        .get(20, TimeUnit.SECONDS);
                pair.sender.shutdownOutput();
                assertThat(received.get(20, TimeUnit.SECONDS)).hasSize(2 * SIZE);
            }
            recording.stop();
            Path dump = dir.resolve("recording.jfr");
            recording.dump(dump);
            events = transferEvents(dump);
        }

        assertThat(results).hasSize(9);
        assertThat(events).extracting(e -> e.getString("outcome")).containsOnly("completed");
        assertThat(summaries(events))
                .containsExactlyInAnyOrderElementsOf(results.stream()
                        .map(r -> r.strategy() + " " + r.bytesTransferred())
                        .collect(Collectors.toList()));
        for (RecordedEvent e : events) {
            assertThat(e.getLong("bytes"))
                    .isEqualTo(e.getLong("expectedBytes") < 0 ? e.getLong("bytes") : e.getLong("expectedBytes"));
            assertThat(e.getString("reason")).isNotBlank();
            assertThat(e.getDuration().isNegative()).as("duration below 0").isFalse();
            assertThat(e.getLong("stalled")).isNotNegative();
        }
    }

    @Test
    void event_failedTransfer_carriesTheExactCount() throws Exception {
        Path source = Files.write(dir.resolve("source"), new byte[SIZE]);
        AdversarialChannels.Target failing =
                AdversarialChannels.Target.limited(AdversarialChannels.Behaviour.FAIL_AFTER_N, 10_000, new Random(21));

        TransferException failure;
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable(TransferEvent.NAME);
            recording.start();
            failure = catchThrowableOfType(
                    TransferException.class, () -> Transfers.copy(source, (WritableByteChannel) failing));
            recording.stop();
            Path dump = dir.resolve("recording.jfr");
            recording.dump(dump);
            events = transferEvents(dump);
        }

        assertThat(failure).isNotNull();
        assertThat(events).hasSize(1);
        assertThat(events.get(0).getString("outcome")).isEqualTo("failed");
        assertThat(events.get(0).getLong("bytes"))
                .isEqualTo(failure.bytesTransferred())
                .isEqualTo(failing.size());
        assertThat(events.get(0).getLong("expectedBytes")).isEqualTo(SIZE);
        assertThat(events.get(0).getString("target")).isEqualTo("OTHER");
    }

    private static List<RecordedEvent> transferEvents(Path dump) throws IOException {
        return RecordingFile.readAllEvents(dump).stream()
                .filter(e -> e.getEventType().getName().equals(TransferEvent.NAME))
                .collect(Collectors.toList());
    }

    private static List<String> summaries(List<RecordedEvent> events) {
        List<String> out = new ArrayList<>();
        for (RecordedEvent e : events) {
            out.add(e.getString("strategy") + " " + e.getLong("bytes"));
        }
        return out;
    }
}
