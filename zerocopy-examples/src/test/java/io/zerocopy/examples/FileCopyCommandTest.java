package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code file-copy} in each mode, compared byte for byte, and its errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileCopyCommandTest {

    private static final int SIZE = (5 << 20) + 777;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--mode {0}")
    @CsvSource({"buffered, by buffered", "transferTo, by transferTo", "auto, by transferTo ("})
    void fileCopy_eachMode_copiesEveryByte(String mode, String method) throws Exception {
        byte[] content = TestData.bytes(SIZE, 5);
        Path source = TestData.file(dir, "source.bin", content);
        Path target = dir.resolve("target.bin");

        Cli.Run run = Cli.exec("file-copy", "--mode", mode, source.toString(), target.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("copied " + SIZE + " bytes", method);
        assertThat(TestData.crc32c(Files.readAllBytes(target))).isEqualTo(TestData.crc32c(content));
        assertThat(Files.size(target)).isEqualTo(SIZE);
    }

    @Test
    void fileCopy_existingTarget_failsUnlessReplace() throws Exception {
        byte[] content = TestData.bytes(1000, 6);
        Path source = TestData.file(dir, "source.bin", content);
        Path target = TestData.file(dir, "target.bin", new byte[] {1, 2, 3});

        Cli.Run refused = Cli.exec("file-copy", source.toString(), target.toString());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("file already exists", target.toString());
        assertThat(Files.readAllBytes(target)).containsExactly(1, 2, 3);

        Cli.Run replaced = Cli.exec("file-copy", "--replace", source.toString(), target.toString());
        assertThat(replaced.exit()).as(replaced.err()).isZero();
        assertThat(Files.readAllBytes(target)).isEqualTo(content);
    }

    @Test
    void fileCopy_missingSource_isAUsageError() {
        Path missing = dir.resolve("missing.bin");
        Cli.Run run =
                Cli.exec("file-copy", missing.toString(), dir.resolve("t.bin").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("SOURCE", "no such file", missing.toString());
        assertThat(dir.resolve("t.bin")).doesNotExist();
    }

    /** A non-empty directory in the way of --replace is named as such, not by its bare path. */
    @Test
    void fileCopy_replaceANonEmptyDirectory_saysSo() throws Exception {
        Path source = TestData.file(dir, "source.bin", TestData.bytes(1000, 7));
        Path full = Files.createDirectory(dir.resolve("fulldir"));
        TestData.file(full, "inside.bin", new byte[] {1});

        Cli.Run run = Cli.exec("file-copy", "--replace", source.toString(), full.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("file-copy: directory not empty: " + full);
        assertThat(full.resolve("inside.bin")).exists();
    }

    /**
     * A source the user may not read, itself or by its directory, is a usage error that says so
     * ("access denied", not "no such file"), before the target is made. As a user without root's
     * power to read every file, in a child JVM.
     */
    @Test
    void fileCopy_unreadableSource_isAUsageErrorSayingAccessDenied() throws Exception {
        List<Path> unreadable = TestData.unreadableFiles(dir);
        try {
            for (Path source : unreadable) {
                Path target = dir.resolve("target.bin");
                Cli.Run run = ChildMain.run(
                        ChildMain.withoutPowerToReadAll(dir),
                        List.of(),
                        "file-copy",
                        source.toString(),
                        target.toString());
                assertThat(run.exit()).as(run.out()).isEqualTo(2);
                assertThat(run.out()).contains("SOURCE: access denied: " + source);
                assertThat(target).doesNotExist();
            }
        } finally {
            TestData.readableAgain(dir);
        }
    }

    @Test
    void fileCopy_unknownMode_isAUsageErrorNamingTheOption() {
        Cli.Run run = Cli.exec("file-copy", "--mode", "mmap", "a", "b");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--mode", "mmap", "buffered", "transferTo", "auto");
    }
}
