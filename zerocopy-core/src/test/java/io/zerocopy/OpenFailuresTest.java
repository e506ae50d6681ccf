package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

    /**
     * The JDK's own refusals of a link under {@code NOFOLLOW_LINKS}, from each open the JDK path
     * makes, are told apart from every other failure: the words the opens beneath a directory rely
     * on when a link is swapped in and out again before they look.
     */
    @Test
    void refusedLink_theJdksOwnRefusals(@TempDir Path dir) throws IOException {
        Path file = Files.write(dir.resolve("file"), new byte[1]);
        Path linkToFile = Files.createSymbolicLink(dir.resolve("link-to-file"), file);
        Path linkToDir = Files.createSymbolicLink(dir.resolve("link-to-dir"), dir);
        List<IOException> refusals = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            assumeTrue(stream instanceof SecureDirectoryStream, "no SecureDirectoryStream here");
            SecureDirectoryStream<Path> sds = (SecureDirectoryStream<Path>) stream;
            refusals.add(catchThrowableOfType(
                    IOException.class,
                    () -> sds.newByteChannel(
                                    linkToFile.getFileName(),
                                    Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
                            .close()));
            refusals.add(catchThrowableOfType(
                    IOException.class,
                    () -> sds.newDirectoryStream(linkToDir.getFileName(), LinkOption.NOFOLLOW_LINKS)
                            .close()));
        }
        refusals.add(catchThrowableOfType(
                IOException.class,
                () -> FileChannel.open(linkToFile, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)
                        .close()));

        assertThat(refusals)
                .allSatisfy(
                        e -> assertThat(OpenFailures.refusedLink(e)).as("%s", e).isTrue());
        assertThat(OpenFailures.refusedLink(new NoSuchFileException("/srv/missing")))
                .isFalse();
        assertThat(OpenFailures.refusedLink(new FileSystemException("/srv/a/b", null, "Not a directory")))
                .isFalse();
        assertThat(OpenFailures.refusedLink(new FileSystemException("/srv/a", null, "Too many open files")))
                .isFalse();
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
