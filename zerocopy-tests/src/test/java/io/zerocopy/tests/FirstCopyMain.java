package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

/**
 * The child JVM of {@link FirstCopyTest}, started with its class loading logged to {@code
 * classes.txt} in the directory it is given: copies a file before any recording, says whether that
 * loaded the flight recorder's metadata, then starts a recording, copies again and counts the
 * transfer events the recording holds.
 */
public final class FirstCopyMain {
    private FirstCopyMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path file = Files.write(dir.resolve("file"), new byte[4096]);
        Transfers.copy(file, Channels.newChannel(OutputStream.nullOutputStream()));
        boolean metadata =
                Files.readString(dir.resolve("classes.txt")).contains("jdk.jfr.internal.MetadataRepository ");
        System.out.println("recorder metadata loaded by the first copy: " + metadata);
        Path dump = dir.resolve("later.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("io.zerocopy.Transfer");
            recording.start();
            Transfers.copy(file, Channels.newChannel(OutputStream.nullOutputStream()));
            recording.stop();
            recording.dump(dump);
        }
        long events = RecordingFile.readAllEvents(dump).stream()
                .filter(e -> e.getEventType().getName().equals("io.zerocopy.Transfer"))
                .count();
        System.out.println("transfer events in a recording started later: " + events);
    }
}
