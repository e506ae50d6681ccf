package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Copies {@code SOURCE} over {@code TARGET} with {@code REPLACE_EXISTING} by the library and prints
 * {@code failed CLASS} (or {@code copied}) and {@code target BYTES} (what the target holds after,
 * or {@code gone}). {@code CopyAttributesTest} runs it without the power to read the source.
 */
public final class UnreadableSourceMain {
    private UnreadableSourceMain() {}

    public static void main(String[] args) throws Exception {
        Path source = Path.of(args[0]);
        Path target = Path.of(args[1]);
        try {
            Transfers.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            System.out.println("copied");
        } catch (Exception e) {
            System.out.println("failed " + e.getClass().getName());
        }
        System.out.println("target " + (Files.exists(target) ? Files.readString(target) : "gone"));
    }
}
