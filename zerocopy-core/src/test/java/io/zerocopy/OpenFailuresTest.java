package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which failed opens are shortages ({@link ResourceShortageException}) and which keep their own type. */
class OpenFailuresTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Too many open files",
                "Too many open files in system",
                "Cannot allocate memory",
                "No file descriptors available",
                "Out of memory"
            })
    void translate_shortageReason_isAResourceShortage(String reason) {
        FileSystemException jdk = new FileSystemException("/srv/a.txt", null, reason);

        IOException translated = OpenFailures.translate(jdk);

        assertThat(translated).isInstanceOf(ResourceShortageException.class).hasCause(jdk);
        ResourceShortageException shortage = (ResourceShortageException) translated;
        assertThat(shortage.getFile()).isEqualTo("/srv/a.txt");
        assertThat(shortage.getReason()).isEqualTo(reason);
        assertThat(shortage.getMessage()).isEqualTo("/srv/a.txt: " + reason);
    }

    /**
     * An open beneath a directory without native access (JDK 17) fails by segment: naming the whole
     * path keeps a shortage a shortage, so that a cache keeps its entry and a server answers 503.
     */
    @Test
    void beneathStepShortage_namedByPath_isAResourceShortage() {
        FileSystemException step = new FileSystemException("index.html", null, "Too many open files");

        IOException named = BeneathOpener.named(step, Path.of("/srv/www/docs/index.html"));

        assertThat(named).isInstanceOf(ResourceShortageException.class);
        assertThat(((ResourceShortageException) named).getFile()).isEqualTo("/srv/www/docs/index.html");
        assertThat(named.getCause()).hasCause(step);
    }

    @Test
    void translate_notAFile_isUntouched() {
        FileSystemException notAFile = new FileSystemException("/srv/fifo", null, OpenFailures.NOT_A_FILE);
        assertThat(OpenFailures.translate(notAFile)).isSameAs(notAFile);
    }

    @Test
    void translate_otherFailures_areUntouched() {
        for (IOException e : new IOException[] {
            new NoSuchFileException("/srv/missing"),
            new AccessDeniedException("/srv/secret"),
            new FileSystemException("/srv/link", null, "Too many levels of symbolic links"),
            new FileSystemException("/srv/a/b", null, "Not a directory"),
            new FileSystemException("/srv/x", null, null),
            new FileSystemException("/srv/x", null, "too many open files (not the C library's words)"),
            new IOException("Too many open files") // not a FileSystemException: no file, no reason
        }) {
            assertThat(OpenFailures.translate(e)).as("%s", e).isSameAs(e);
        }
    }

    @Test
    void translate_aShortageAlready_isUntouched() {
        ResourceShortageException shortage = new ResourceShortageException("/srv/a.txt", "Too many open files");
        assertThat(OpenFailures.translate(shortage)).isSameAs(shortage);
    }
}
