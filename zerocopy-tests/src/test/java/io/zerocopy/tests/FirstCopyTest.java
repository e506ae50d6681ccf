package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process's first transfer, in a JVM of its own ({@link FirstCopyMain}): it leaves the flight
 * recorder's metadata unloaded when no recording is on (loading it cost the first transfer about a
 * third of a second), and a recording started afterwards still gets the transfer events.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FirstCopyTest {

    @TempDir
    Path dir;

    @Test
    void firstCopy_withoutRecording_leavesTheRecordersMetadata_aLaterRecordingStillHearsTransfers() throws Exception {
        String printed = ChildJvm.run(
                dir,
                List.of("-Xlog:class+load=info:file=" + dir.resolve("classes.txt")),
                FirstCopyMain.class,
                Duration.ofSeconds(50),
                dir.toString());

        assertThat(printed)
                .contains("recorder metadata loaded by the first copy: false")
                .contains("transfer events in a recording started later: 1");
    }
}
