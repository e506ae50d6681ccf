package io.zerocopy.examples.http;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code curl} command for the integration tests: found on the PATH, or installed with
 * {@code apt-get} once per JVM where that is possible (root on Debian); tests that need it are
 * skipped with the reason where it is not.
 */
final class Curl {

    /** What one run printed. */
    record Run(int exit, String out, String err) {}

    private static Path found;
    private static String missing;

    private Curl() {}

    /** The curl executable, or aborts the calling test with why there is none. */
    static synchronized Path require() {
        if (found == null && missing == null) {
            found = locate();
            if (found == null) {
                missing = install();
                found = locate();
            }
        }
        assumeTrue(found != null, () -> "curl is not installed and could not be: " + missing);
        return found;
    }

    /** Runs curl with these arguments (after {@code -sS}); fails if it has not ended within 60 s. */
    static Run run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(require().toString(), "-sS", "--max-time", "30"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("curl did not end: " + command);
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private static Path locate() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir, "curl");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Tries {@code apt-get install curl}; returns why it did not work, or null. */
    private static String install() {
        if (locateApt() == null) {
            return "no apt-get here";
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "apt-get needs root";
        }
        try {
            for (List<String> step :
                    List.of(List.of("apt-get", "update", "-qq"), List.of("apt-get", "install", "-y", "-qq", "curl"))) {
                Process p = new ProcessBuilder(step)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!p.waitFor(5, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    return String.join(" ", step) + " took more than 5 minutes";
                }
                if (p.exitValue() != 0) {
                    return String.join(" ", step) + " failed with exit code " + p.exitValue();
                }
            }
            return null;
        } catch (IOException e) {
            return "apt-get could not run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static Path locateApt() {
        Path apt = Path.of("/usr/bin/apt-get");
        return Files.isExecutable(apt) ? apt : null;
    }
}
