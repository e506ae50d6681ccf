package com.example.modular;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zerocopy.Transfers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs inside the application's module (surefire patches it in), with zerocopy as a named module. */
class ArchiveTest {
    @TempDir
    Path dir;

    @Test
    void store_onTheModulePath() throws Exception {
        assertEquals("com.example.modular", Archive.class.getModule().getName(), "the application is a named module");
        assertEquals("io.zerocopy", Transfers.class.getModule().getName(), "zerocopy is resolved as a module");
        assertTrue(Archive.class.getModule().canRead(Transfers.class.getModule()), "requires io.zerocopy");

        byte[] content = new byte[(1 << 20) + 17];
        new Random(7).nextBytes(content);
        Path file = Files.write(dir.resolve("report.bin"), content);
        Path archive = Files.createDirectory(dir.resolve("archive"));

        long copied = new Archive(archive).store(file);

        assertEquals(content.length, copied, "bytes copied");
        assertArrayEquals(content, Files.readAllBytes(archive.resolve("report.bin")), "archived copy");
    }
}
