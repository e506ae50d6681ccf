package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OpenFile#lookedAtTwice}, the open by name on the JDK's path, driven by looks that never
 * settle: a name that is another file at every look fails after the tries, closing every channel
 * it opened; a file written in place at every look is taken with its first look.
 */
class OpenFileLooksTest {
    @TempDir
    Path dir;

    private final List<FileChannel> opened = new ArrayList<>();

    private OpenFile.Opening opening(Path file) {
        return () -> {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            opened.add(channel);
            return channel;
        };
    }

    @Test
    void anotherFileAtEveryLook_failsReplaced_closesEveryChannel() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "a");
        Path b = Files.writeString(dir.resolve("b"), "b");
        int[] looks = {0};
        OpenFile.Look alternating = () -> Files.readAttributes(looks[0]++ % 2 == 0 ? a : b, BasicFileAttributes.class);

        assertThatThrownBy(() -> OpenFile.lookedAtTwice(a, alternating, opening(a)))
                .isInstanceOfSatisfying(FileSystemException.class, e -> {
                    assertThat(e.getReason()).isEqualTo(OpenFile.REPLACED);
                    assertThat(e.getFile()).isEqualTo(a.toString());
                });
        assertThat(opened).hasSize(OpenFile.OPEN_TRIES).noneMatch(FileChannel::isOpen);
        assertThat(looks[0]).isEqualTo(2 * OpenFile.OPEN_TRIES);
    }

    @Test
    void writtenInPlaceAtEveryLook_takesTheLastTrysFirstLook() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "a");
        OpenFile.Look growing = () -> {
            BasicFileAttributes now = Files.readAttributes(a, BasicFileAttributes.class);
            Files.writeString(a, "+", StandardOpenOption.APPEND);
            return now;
        };

        try (OpenFile file = OpenFile.lookedAtTwice(a, growing, opening(a))) {
            assertThat(opened).hasSize(OpenFile.OPEN_TRIES);
            assertThat(opened.subList(0, OpenFile.OPEN_TRIES - 1)).noneMatch(FileChannel::isOpen);
            assertThat(file.channel()).isSameAs(opened.get(OpenFile.OPEN_TRIES - 1));
            assertThat(file.channel().isOpen()).isTrue();
            // the last try's first look came after 2 * (tries - 1) appends to the one byte
            assertThat(file.attributes().size()).isEqualTo(1 + 2L * (OpenFile.OPEN_TRIES - 1));
            assertThat(file.attributes().fileKey())
                    .isEqualTo(
                            Files.readAttributes(a, BasicFileAttributes.class).fileKey());
        }
    }

    @Test
    void sameFileAtBothLooks_oneOpen() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "abc");
        int[] looks = {0};
        OpenFile.Look still = () -> {
            looks[0]++;
            return Files.readAttributes(a, BasicFileAttributes.class);
        };

        try (OpenFile file = OpenFile.lookedAtTwice(a, still, opening(a))) {
            assertThat(opened).containsExactly(file.channel());
            assertThat(looks[0]).isEqualTo(2);
            assertThat(file.attributes().size()).isEqualTo(3);
        }
    }
}
