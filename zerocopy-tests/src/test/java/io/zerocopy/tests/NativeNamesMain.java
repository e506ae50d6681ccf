package io.zerocopy.tests;

import io.zerocopy.OpenFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child JVM of {@link NativeNamesTest}: one case where the file a name names changed, or was
 * named another way, after the JDK decided at its start how it resolves and encodes names, before
 * or after the library's first native open. For each file it reads, it prints
 * {@code jdk LABEL 'BYTES'} (what {@code Files.readAllBytes} read) and one line per entry point:
 * {@code check LABEL open|copy-to-socket natively|jdk|- same|DIFFERENT(why)}, as
 * {@link NativePathMain} prints them.
 */
public final class NativeNamesMain {
    private NativeNamesMain() {}

    /** Args: the case, the directory {@link NativeNamesTest} made its files in. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "renamed" -> {
                replaceWorkingDirectory(dir); // before the first native open
                check("after-rename", Path.of("f.txt"));
            }
            case "chdir-allowed" -> {
                check("before-rename", Path.of("f.txt"));
                replaceWorkingDirectory(dir);
                check("after-rename", Path.of("f.txt"));
            }
            case "user-dir-link" -> {
                check("link-to-a", Path.of("f.txt"));
                Path link = dir.resolve("link");
                Files.delete(link);
                Files.createSymbolicLink(link, dir.resolve("b"));
                check("link-to-b", Path.of("f.txt"));
            }
            case "jnu-property" -> {
                System.setProperty("sun.jnu.encoding", "ISO-8859-1"); // after the JDK read it
                check("cafe", dir.resolve("names").resolve("caf\u00e9.txt"));
            }
            case "provider" -> {
                Path path = dir.resolve("from").resolve("f.txt");
                System.out.println(
                        "provider " + path.getFileSystem().provider().getClass().getName());
                check("remapped", path);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** Renames {@code dir/work}, the working directory, away, and makes another with another f.txt at its name. */
    private static void replaceWorkingDirectory(Path dir) throws Exception {
        Path work = dir.resolve("work");
        Files.move(work, dir.resolve("moved"));
        Files.createDirectory(work);
        Files.writeString(work.resolve("f.txt"), "made-at-the-old-name");
    }

    private static void check(String label, Path path) {
        NativePathMain.Outcome expected =
                NativePathMain.Outcome.of(() -> new NativePathMain.Read(Files.readAllBytes(path), false));
        System.out.println("jdk " + label + " "
                + (expected.read() == null
                        ? expected.failure().toString()
                        : "'" + new String(expected.read().bytes(), StandardCharsets.ISO_8859_1) + "'"));
        System.out.println("check " + label + " open "
                + NativePathMain.Outcome.of(() -> NativePathMain.readAll(OpenFile.open(path)))
                        .against(expected));
        System.out.println("check " + label + " copy-to-socket "
                + NativePathMain.Outcome.of(() -> NativePathMain.sent(path, NativePathMain.Send.COPY))
                        .against(expected));
    }
}
