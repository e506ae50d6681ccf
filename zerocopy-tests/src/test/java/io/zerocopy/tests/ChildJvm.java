package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A JVM started from this one's own {@code java} with this test's class path, for what needs a process of its own. */
public final class ChildJvm {
    private ChildJvm() {}

    /**
     * Runs {@code main} with {@code jvmOptions} and {@code args}, its output (both streams) in a file
     * under {@code dir}; returns what it printed, having checked that it ended within {@code timeout}
     * with exit status 0.
     */
    public static String run(Path dir, List<String> jvmOptions, Class<?> main, Duration timeout, String... args)
            throws Exception {
        return run(dir, List.of(), jvmOptions, main, timeout, args);
    }

    /** As {@link #run(Path, List, Class, Duration, String...)}, the JVM started by {@code launcher} (a command and its arguments). */
    public static String run(
            Path dir, List<String> launcher, List<String> jvmOptions, Class<?> main, Duration timeout, String... args)
            throws Exception {
        return run(dir, launcher, jvmOptions, main, timeout, process -> {}, args);
    }

    /** As {@link #run(Path, List, List, Class, Duration, String...)}, the process's directory or environment set by {@code setUp}. */
    public static String run(
            Path dir,
            List<String> launcher,
            List<String> jvmOptions,
            Class<?> main,
            Duration timeout,
            Consumer<ProcessBuilder> setUp,
            String... args)
            throws Exception {
        List<String> command = new ArrayList<>(launcher);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile(dir, main.getSimpleName(), ".txt");
        ProcessBuilder child =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        setUp.accept(child);
        Process process = child.start();
        try {
            assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the child JVM ends")
                    .isTrue();
        } finally {
            process.destroyForcibly();
        }
        String printed = Files.readString(output);
        assertThat(process.exitValue()).as(printed).isZero();
        return printed;
    }
}
