package io.zerocopy.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

/** Generated file content for the tests, and its checksum computed independently of the code under test. */
final class TestData {
    private TestData() {}

    static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    static Path file(Path dir, String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    /**
     * Two files under {@code dir} a user without root's powers may not read: one by its own mode,
     * one by its directory's; {@link #readableAgain} lets the test's directory be deleted after.
     */
    static List<Path> unreadableFiles(Path dir) throws IOException {
        Path locked = file(dir, "locked.bin", bytes(100, 1));
        Path closedDir = Files.createDirectory(dir.resolve("closed"));
        Path inside = file(closedDir, "inside.bin", bytes(100, 2));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        Files.setPosixFilePermissions(closedDir, PosixFilePermissions.fromString("---------"));
        return List.of(locked, inside);
    }

    /** Opens again the directory {@link #unreadableFiles} closed. */
    static void readableAgain(Path dir) throws IOException {
        Files.setPosixFilePermissions(dir.resolve("closed"), PosixFilePermissions.fromString("rwx------"));
    }

    static long crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data, 0, data.length);
        return crc.getValue();
    }

    static String crcHex(byte[] data) {
        return String.format("%08x", crc32c(data));
    }
}
