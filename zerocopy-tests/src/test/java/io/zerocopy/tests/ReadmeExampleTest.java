package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's usage example, compiled against the library as it is and run against a receiver on
 * 127.0.0.1, so the README cannot drift from the API. Only the file name and the address are
 * swapped for a generated file and the receiver's port.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadmeExampleTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path dir;

    @Test
    void readmeUsage_compilesAndSendsTheWholeFile() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        Matcher block = JAVA_BLOCK.matcher(readme);
        assertThat(block.find()).as("a ```java block in README.md").isTrue();
        String snippet = block.group(1);
        assertThat(snippet).contains("\"segment.log\"", "\"example.org\", 9000");

        byte[] content = TestFiles.randomBytes(3 << 20, 20261122);
        Path file = TestFiles.write(dir.resolve("segment.log"), content);
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            String runnable = snippet.replace("\"segment.log\"", javaString(file.toString()))
                    .replace(
                            "\"example.org\", 9000",
                            "\"127.0.0.1\", " + receiver.address().getPort());
            Method run = compile(runnable).getMethod("run");
            run.invoke(null);

            LoopbackReceiver.Received received = receiver.received();
            assertThat(received.bytes()).isEqualTo(content.length);
            assertThat(received.crc32c()).isEqualTo(TestFiles.crc32c(content));
        }
    }

    /**
     * The event-loop example: one selector thread serving the file to three clients on 127.0.0.1,
     * each of which must receive all of it. The port, the file and the number of clients are the
     * only things swapped.
     */
    @Test
    void readmeEventLoop_servesEveryClientTheWholeFile() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        int section = readme.indexOf("## In an event loop");
        assertThat(section).as("an event-loop section in README.md").isPositive();
        Matcher block = JAVA_BLOCK.matcher(readme);
        assertThat(block.find(section))
                .as("a ```java block in the event-loop section")
                .isTrue();
        String snippet = block.group(1);
        assertThat(snippet).contains("\"video.mp4\"", "\"127.0.0.1\", 8080", "served < 100", "Transfers.open(");

        byte[] content = TestFiles.randomBytes(5 << 20, 20261123);
        Path file = TestFiles.write(dir.resolve("video.mp4"), content);
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        // the address first and whole: a temporary directory's name may hold "8080"
        String runnable = snippet.replace("\"127.0.0.1\", 8080", "\"127.0.0.1\", " + port)
                .replace("served < 100", "served < 3")
                .replace("\"video.mp4\"", javaString(file.toString()));
        Method run = compile(runnable).getMethod("run");
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            Future<?> server = threads.submit(() -> {
                run.invoke(null);
                return null;
            });
            List<Future<byte[]>> clients = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                clients.add(threads.submit(() -> readAll(port)));
            }
            for (Future<byte[]> client : clients) {
                try {
                    assertThat(client.get(30, TimeUnit.SECONDS)).isEqualTo(content);
                } catch (TimeoutException e) {
                    throw new AssertionError("a client had no end of stream in 30 s; the example " + state(server), e);
                }
            }
            server.get(30, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
    }

    /** What became of the example's server: still running, or how it ended. */
    private static String state(Future<?> server) throws InterruptedException {
        if (!server.isDone()) {
            return "still runs";
        }
        try {
            server.get();
            return "returned";
        } catch (ExecutionException e) {
            StringWriter trace = new StringWriter();
            e.getCause().printStackTrace(new java.io.PrintWriter(trace));
            return "failed: " + trace;
        }
    }

    /** Connects, retrying until the example's server is listening, and reads to end of stream. */
    private static byte[] readAll(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return socket.getInputStream().readAllBytes();
            } catch (ConnectException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Compiles the snippet as the body of {@code static void run()} with the imports a reader would add. */
    private Class<?> compile(String body) throws IOException, ClassNotFoundException {
        String source = "import io.zerocopy.*;\n"
                + "import java.io.*;\n"
                + "import java.net.*;\n"
                + "import java.util.*;\n"
                + "import java.nio.channels.*;\n"
                + "import java.nio.file.*;\n"
                + "public class ReadmeExample {\n"
                + "    public static void run() throws Exception {\n" + body + "    }\n"
                + "}\n";
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createDirectories(dir.resolve("classes"));
        StringWriter diagnostics = new StringWriter();
        SimpleJavaFileObject unit =
                new SimpleJavaFileObject(URI.create("string:///ReadmeExample.java"), SimpleJavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                        return source;
                    }
                };
        List<String> options = List.of(
                "-classpath", System.getProperty("java.class.path"), "-d", classes.toString(), "-Xlint:all", "-Werror");
        boolean ok = javac.getTask(diagnostics, null, null, options, null, List.of(unit))
                .call();
        assertThat(ok)
                .as("README example compiles:%n%s%n%s", source, diagnostics)
                .isTrue();
        URLClassLoader loader = new URLClassLoader(
                new URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
        return loader.loadClass("ReadmeExample");
    }

    private static String javaString(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
