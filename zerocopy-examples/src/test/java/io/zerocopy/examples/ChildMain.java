package io.zerocopy.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The examples' {@link Main} in a child JVM, as a user runs it: for what only a process shows (system
 * properties, signals, a user without root's power to read every file). Its two output streams are
 * read as one, line by line.
 */
final class ChildMain implements AutoCloseable {
    /** Put after the last line. */
    private static final String END = new String("end of output");

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer transcript = new StringBuffer();
    private final CompletableFuture<Void> read = new CompletableFuture<>();

    private ChildMain(Process process) {
        this.process = process;
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            transcript.append(line).append('\n');
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        transcript
                                .append("(reading the output failed: ")
                                .append(e)
                                .append(")\n");
                    } finally {
                        lines.add(END);
                        read.complete(null);
                    }
                },
                "child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code launcher} (words before {@code java}, such as {@link #withoutPowerToReadAll}), then
     * this JVM's {@code java} with {@code jvmArgs} and this test's class path running Main with
     * {@code args}.
     */
    static ChildMain start(List<String> launcher, List<String> jvmArgs, String... args) throws IOException {
        // A build started in the background (nohup, a CI agent) ignores SIGINT, and a child inherits
        // that: the JVM then never hears Ctrl-C. The child gets the signals' defaults back.
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT,TERM"));
        command.addAll(launcher);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ChildMain(
                new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Runs Main to its end (at most 90 s); the output of both streams is the run's {@code out}. */
    static Cli.Run run(List<String> launcher, List<String> jvmArgs, String... args) throws Exception {
        try (ChildMain child = start(launcher, jvmArgs, args)) {
            return child.await(90);
        }
    }

    /**
     * The launcher that takes root's power to read and search every file ({@code setpriv}) when this
     * test runs as root, as CI does; none otherwise.
     */
    static List<String> withoutPowerToReadAll(Path any) throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(any, "unix:uid"))
                ? List.of("setpriv", "--bounding-set=-dac_override,-dac_read_search")
                : List.of();
    }

    /** Waits for the process to end and its output to be read. */
    Cli.Run await(long seconds) throws Exception {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("still running after " + seconds + " s: " + transcript);
        }
        read.get(10, TimeUnit.SECONDS);
        return new Cli.Run(process.exitValue(), transcript.toString(), "");
    }

    /** Waits for a line that contains {@code text} and returns it; fails with the output so far if none comes. */
    String awaitLine(String text, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (; ; ) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null || line == END) {
                throw new AssertionError("no line with \"" + text + "\" in: " + transcript);
            }
            if (line.contains(text)) {
                return line;
            }
        }
    }

    /**
     * Waits until the output so far, lines already awaited included, holds {@code count} lines that
     * contain {@code text}; fails with it if they do not come within {@code seconds}.
     */
    void awaitLineCount(String text, int count, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (count(text) < count) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if ((line == null || line == END) && count(text) < count) {
                throw new AssertionError(
                        count(text) + " of " + count + " lines with \"" + text + "\" in: " + transcript);
            }
        }
    }

    private long count(String text) {
        return transcript.toString().lines().filter(line -> line.contains(text)).count();
    }

    /** Sends a signal by name ({@code INT}, {@code TERM}) with kill(1). */
    void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid()))
                .inheritIO()
                .start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + name + " failed");
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}
