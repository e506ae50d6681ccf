package io.zerocopy.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    static long crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data, 0, data.length);
        return crc.getValue();
    }

    static String crcHex(byte[] data) {
        return String.format("%08x", crc32c(data));
    }
}
