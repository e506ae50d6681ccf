package io.zerocopy.examples.http;

import io.zerocopy.examples.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code http-server} in a child JVM started as a user starts it, on an ephemeral port of
 * 127.0.0.1: its address read from its start line, its standard error kept in a file, stopped
 * gracefully (SIGTERM) when closed.
 */
final class ServerProcess implements AutoCloseable {
    private static final Pattern PORT = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+)/");

    private final Process process;
    private final Path errors;
    private final InetSocketAddress address;

    private ServerProcess(Process process, Path errors) throws IOException {
        this.process = process;
        this.errors = errors;
        this.address = readAddress();
    }

    /**
     * Starts {@code launcher} (the words before {@code java}: a shell that sets a limit, or none),
     * then this JVM's {@code java} with {@code jvmArgs} and this test's class path running
     * {@code http-server --port 0} with {@code serverArgs}; returns once it listens.
     *
     * @param errors where the server's standard error goes
     * @throws AssertionError with its standard error if it ends before it listens
     */
    static ServerProcess start(List<String> launcher, List<String> jvmArgs, Path errors, String... serverArgs)
            throws IOException {
        return start(launcher, Map.of(), jvmArgs, errors, serverArgs);
    }

    /**
     * As {@link #start(List, List, Path, String...)}, with {@code environment} added to this
     * process's environment (a locale, say: {@code LC_ALL=C}).
     */
    static ServerProcess start(
            List<String> launcher,
            Map<String, String> environment,
            List<String> jvmArgs,
            Path errors,
            String... serverArgs)
            throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of(
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "http-server", "--port", "0"));
        command.addAll(List.of(serverArgs));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            return new ServerProcess(process, errors);
        } catch (IOException | RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    InetSocketAddress address() {
        return address;
    }

    /** What the server has written to its standard error so far. */
    String stderr() throws IOException {
        return Files.readString(errors);
    }

    private InetSocketAddress readAddress() throws IOException {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            Matcher m = PORT.matcher(line);
            if (m.find()) {
                return new InetSocketAddress("127.0.0.1", Integer.parseInt(m.group(1)));
            }
        }
        throw new AssertionError("the server ended before it listened: " + stderr());
    }

    /** Stops the server with SIGTERM, a graceful stop, and after 20 s with SIGKILL. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
