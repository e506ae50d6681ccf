package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@link NativePathMain} in a child JVM with native access, the promise that the native
 * path opens the file the JDK opens: on names whose bytes the JDK's text for them does not spell (a
 * Latin-1 name; a UTF-8 one, which {@code LC_ALL=C} does not spell), each beside a file named as the
 * lossy decode reads; on a relative path under a {@code user.dir} that is not the working directory;
 * on a file {@code sendfile} sends into a socket (above 8 KiB); on a symbolic link at the last
 * step, which an entry that does not follow links must refuse; and on a file the child may not read
 * (mode 000; a child of root runs without {@code CAP_DAC_OVERRIDE}), which every entry must fail
 * to open as the JDK fails.
 */
final class NativePathRun {
    /** {@link NativePathMain}'s entry points that open natively; {@code copy-to-file} opens by the JDK. */
    static final List<String> OPENS_NATIVELY = List.of(
            "open",
            "open-nofollow",
            "copy-to-socket",
            "transfer-to-socket",
            "copy-async",
            "copy-to-stream",
            "cache-miss",
            "cache-hit",
            "cache-relook",
            "cache-nofollow",
            "beneath",
            "open-beneath",
            "cache-beneath");

    /** The files each run reads: the nine the directory lists, and {@code rel.txt} relative to {@code user.dir}. */
    private static final int FILES = 10;

    /** Above the 8 KiB a file goes by one read to a peer on this host: {@code sendfile} sends it. */
    private static final int SENDFILE_BYTES = 20_000;

    private NativePathRun() {}

    /**
     * Makes the files under {@code dir} and runs {@link NativePathMain} on them with {@code java}
     * (the command that starts a JVM), under {@code LC_ALL=locale}, with a {@code user.dir} that is
     * not its working directory; returns what it printed, having checked that it ended well.
     */
    static String run(Path dir, List<String> java, String locale, long seed, int timeoutSeconds) throws Exception {
        Path served = Files.createDirectory(dir.resolve("served"));
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path copies = Files.createDirectory(dir.resolve("copies"));
        // the shell makes names from raw bytes; the JVM here may run under any locale
        shell(
                served,
                "printf latin1 > \"$(printf 'l\\351t\\351.txt')\"; printf lossy-latin1 > \"$(printf 'l\\357\\277\\275t\\357\\277\\275.txt')\";"
                        + " printf utf8 > \"$(printf 'caf\\303\\251.txt')\"; printf lossy-ascii > 'caf??.txt'; printf plain > plain.txt;"
                        + " printf served-rel > rel.txt; ln -s plain.txt link.txt; printf secret > secret.txt;"
                        + " chmod 000 secret.txt");
        TestFiles.write(served.resolve("big.bin"), TestFiles.randomBytes(SENDFILE_BYTES, seed));
        Files.writeString(elsewhere.resolve("rel.txt"), "cwd-rel");

        List<String> command = new ArrayList<>();
        if (Integer.valueOf(0).equals(Files.getAttribute(served, "unix:uid"))) {
            // root reads a file whatever its mode: the child runs without that power, as a server would
            command.addAll(List.of("setpriv", "--bounding-set=-dac_override,-dac_read_search"));
        }
        command.addAll(java);
        command.addAll(List.of(
                "--enable-native-access=ALL-UNNAMED",
                "--add-exports",
                "java.base/sun.nio.ch=ALL-UNNAMED",
                "-Duser.dir=" + served,
                "-cp",
                System.getProperty("java.class.path"),
                NativePathMain.class.getName(),
                served.toString(),
                copies.toString()));
        ProcessBuilder child =
                new ProcessBuilder(command).directory(elsewhere.toFile()).redirectErrorStream(true);
        child.environment().remove("LANG");
        child.environment().remove("LC_CTYPE");
        child.environment().put("LC_ALL", locale);
        Process process = child.start();
        String printed;
        try {
            printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(timeoutSeconds, TimeUnit.SECONDS)).isTrue();
        } finally {
            process.destroyForcibly();
        }
        assertThat(process.exitValue()).as(printed).isZero();
        return printed;
    }

    /**
     * What every run must print, whatever the machine: each entry point read what the JDK reads or
     * failed as it fails; the link was refused where links are not followed; the file the child may
     * not read was refused everywhere; a name no text spells was asked for by its text.
     */
    static void assertTheJdksFilesEverywhere(String printed) {
        List<String> lines = printed.lines().filter(l -> l.startsWith("file ")).toList();
        assertThat(lines).as(printed).hasSize(FILES * (OPENS_NATIVELY.size() + 1));
        assertThat(lines).as(printed).allMatch(l -> l.endsWith(" same"));
        for (String entry : List.of("open-nofollow", "cache-nofollow", "beneath", "open-beneath", "cache-beneath")) {
            assertThat(printed).contains("file served/link.txt " + entry + " - same");
        }
        for (String entry : OPENS_NATIVELY) {
            assertThat(printed).contains("file served/secret.txt " + entry + " - same");
        }
        assertThat(printed).contains(" beneath-by-text ");
    }

    /**
     * Where the native path runs: the ASCII names went the native way at every entry point that
     * may, so the run saw that path everywhere, and {@code Transfers.copy(Path, Path)} the JDK's.
     */
    static void assertOpenedNatively(String printed) {
        for (String name : List.of("served/plain.txt", "rel.txt", "served/link.txt")) {
            for (String entry : name.endsWith("link.txt") ? List.of("open") : OPENS_NATIVELY) {
                assertThat(printed).contains("file " + name + " " + entry + " natively same");
            }
            assertThat(printed).contains("file " + name + " copy-to-file jdk same");
        }
    }

    static void shell(Path in, String script) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", script)
                .directory(in.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
