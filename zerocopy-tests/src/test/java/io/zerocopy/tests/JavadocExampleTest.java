package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code <pre>{@code ...}</pre>} example in the Javadoc of zerocopy-core and zerocopy-api,
 * read from the source file, compiled as written against the library with a prelude that binds its
 * free variables to real fixtures (a file of random bytes, a socket connected to a receiver on
 * 127.0.0.1), run, and checked by what the receiver got. A new example fails
 * {@link #everyExample_hasARunner} until it is given a runner here.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JavadocExampleTest {

    private static final List<Path> SOURCE_ROOTS =
            List.of(Path.of("..", "zerocopy-core", "src", "main"), Path.of("..", "zerocopy-api", "src", "main"));
    private static final Pattern EXAMPLE =
            Pattern.compile("<pre>\\{@code[ \\t]*\\n(.*?)\\n[ \\t]*\\*[ \\t]*\\}</pre>", Pattern.DOTALL);
    private static final Pattern JAVADOC_MARGIN = Pattern.compile("(?m)^[ \\t]*\\* ?");
    private static final int SIZE = (3 << 20) + 17;

    @TempDir
    Path dir;

    /** The examples by "File.java#n" (n counts from 0 within the file), in source order. */
    static Map<String, String> examples() throws IOException {
        Map<String, String> examples = new LinkedHashMap<>();
        for (Path root : SOURCE_ROOTS) {
            assertThat(root)
                    .as("source root (tests run from the module directory)")
                    .isDirectory();
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(p -> p.toString().endsWith(".java"))
                        .sorted()
                        .collect(Collectors.toList());
            }
            for (Path file : files) {
                Matcher m = EXAMPLE.matcher(Files.readString(file, StandardCharsets.UTF_8));
                for (int n = 0; m.find(); n++) {
                    examples.put(
                            file.getFileName() + "#" + n,
                            JAVADOC_MARGIN.matcher(m.group(1)).replaceAll(""));
                }
            }
        }
        return examples;
    }

    @Test
    void everyExample_hasARunner() throws IOException {
        assertThat(examples().keySet())
                .as("Javadoc examples; each needs a test below that runs it")
                .containsExactlyInAnyOrder(
                        "FileRegion.java#0",
                        "OpenDirectory.java#0",
                        "OpenFile.java#0",
                        "OpenFileCache.java#0",
                        "Transfer.java#0",
                        "TransferOptions.java#0",
                        "Transfers.java#0");
    }

    /** {@code Transfers}: a whole file to a socket channel. */
    @Test
    void transfers_copiesAFileToASocket() throws Exception {
        String example = example("Transfers.java#0");
        Path file = generatedFile("video.mp4");
        assertSendsFile(example.replace("\"video.mp4\"", javaString(file.toString())), "", file);
    }

    /** {@code TransferOptions}: the copy with a stall timeout and a rate limit. */
    @Test
    void transferOptions_copiesWithTheOptions() throws Exception {
        Path file = generatedFile("file");
        assertSendsFile(example("TransferOptions.java#0"), "Path file, ", file, file);
    }

    /**
     * Runs {@code code}, which returns {@code sent}, with {@code arguments} and then a
     * {@code SocketChannel socketChannel} connected to a draining peer, and checks that the peer
     * got all of {@code file}.
     *
     * @param parameters the declarations of {@code arguments}, each followed by ", "
     */
    private void assertSendsFile(String code, String parameters, Path file, Object... arguments) throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            long sent;
            try (SocketChannel socketChannel = receiver.connectChannel()) {
                Object[] all = Arrays.copyOf(arguments, arguments.length + 1);
                all[arguments.length] = socketChannel;
                sent = (Long) run(code, parameters + "SocketChannel socketChannel", "return sent;", all);
            }
            assertReceived(receiver, sent, Files.readAllBytes(file));
        }
    }

    /** {@code OpenFile}: the file opened once, its head written from its attributes, then the file. */
    @Test
    void openFile_sendsAHeadFromTheAttributesThenTheFile() throws Exception {
        Path path = generatedFile("file");
        byte[] content = Files.readAllBytes(path);
        String modified = Files.getLastModifiedTime(path).toString();
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Length: " + SIZE + "\r\nLast-Modified: " + modified + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0)) {
            long sent;
            try (SocketChannel socket = receiver.connectChannel()) {
                sent = (Long) run(
                        example("OpenFile.java#0"), "Path path, SocketChannel socket", "return sent;", path, socket);
            }
            assertReceived(
                    receiver,
                    sent,
                    ByteBuffer.allocate(head.length + content.length)
                            .put(head)
                            .put(content)
                            .array());
        }
    }

    /** {@code OpenDirectory}: a file opened beneath a held root, its size from that open. */
    @Test
    void openDirectory_opensBeneathTheRoot() throws Exception {
        Path root = Files.createDirectories(dir.resolve("www"));
        Files.writeString(Files.createDirectories(root.resolve("docs")).resolve("index.html"), "<h1>docs</h1>\n");
        String example = example("OpenDirectory.java#0").replace("\"/srv/www\"", javaString(root.toString()));
        assertThat(run(example, "", "return size;")).isEqualTo(14L);
    }

    /** {@code OpenFileCache}: the same file three times, opened once. */
    @Test
    void openFileCache_opensAHotFileOnce() throws Exception {
        Path root = Files.createDirectories(dir.resolve("www"));
        Files.writeString(Files.createDirectories(root.resolve("docs")).resolve("index.html"), "<h1>docs</h1>\n");
        String example = example("OpenFileCache.java#0").replace("\"/srv/www\"", javaString(root.toString()));
        assertThat(run(example, "", "return size;")).isEqualTo(3 * 14L);
    }

    /** {@code FileRegion}: an HTTP head and the whole file as one stream. */
    @Test
    void fileRegion_sendsTheHeadThenTheFile() throws Exception {
        String example = example("FileRegion.java#0");
        Path path = generatedFile("file");
        byte[] content = Files.readAllBytes(path);
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Length: " + SIZE + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            long sent;
            try (SocketChannel socket = receiver.connectChannel()) {
                sent = (Long) run(
                        example,
                        "FileChannel file, long size, SocketChannel socket",
                        "return sent;",
                        file,
                        (long) SIZE,
                        socket);
            }
            byte[] expected = ByteBuffer.allocate(head.length + content.length)
                    .put(head)
                    .put(content)
                    .array();
            assertReceived(receiver, sent, expected);
        }
    }

    /**
     * {@code Transfer}: the example is an event-loop fragment. Its first statement opens the
     * transfer; what follows the "in the loop" comment runs on each OP_WRITE readiness of
     * {@code key}, in a loop the prelude provides, until the transfer is done.
     */
    @Test
    void transfer_isDrivenBySelectorReadiness() throws Exception {
        String example = example("Transfer.java#0");
        String marker = "// in the loop, on OP_WRITE readiness:";
        int split = example.indexOf(marker);
        assertThat(split)
                .as("the Transfer example marks where the loop's handler starts")
                .isPositive();
        String open = example.substring(0, split);
        String onWritable = example.substring(split + marker.length());
        Path path = generatedFile("file");
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER);
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
                Selector selector = Selector.open()) {
            long sent;
            try (SocketChannel socketChannel = receiver.connectChannel()) {
                socketChannel.configureBlocking(false);
                // a small send buffer, so that the socket usually fills and the loop waits for readiness
                // (how often depends on how fast the receiver drains: not asserted)
                socketChannel.setOption(java.net.StandardSocketOptions.SO_SNDBUF, 16 * 1024);
                String body = open
                        + "SelectionKey key = socketChannel.register(selector, SelectionKey.OP_WRITE);\n"
                        + "int handled = 0;\n"
                        + "while (!body.isDone()) {\n"
                        + "    selector.select();\n"
                        + "    selector.selectedKeys().clear();\n"
                        + "    handled++;\n"
                        + onWritable
                        + "}\n"
                        + "if (key.interestOps() != SelectionKey.OP_READ) throw new AssertionError(\"interest \" + key.interestOps());\n"
                        + "if (handled < 1) throw new AssertionError(\"the loop never ran\");\n";
                sent = (Long) run(
                        body,
                        "FileChannel file, SocketChannel socketChannel, Selector selector",
                        "return body.bytesTransferred();",
                        file,
                        socketChannel,
                        selector);
            }
            assertReceived(receiver, sent, Files.readAllBytes(path));
        }
    }

    private static String example(String key) throws IOException {
        String example = examples().get(key);
        assertThat(example).as("Javadoc example %s", key).isNotNull();
        return example;
    }

    private Path generatedFile(String name) throws IOException {
        return TestFiles.write(dir.resolve(name), TestFiles.randomBytes(SIZE, 20261125));
    }

    private static void assertReceived(LoopbackReceiver receiver, long sent, byte[] expected) throws Exception {
        LoopbackReceiver.Received received = receiver.received();
        assertThat(sent).as("count the example returned").isEqualTo(expected.length);
        assertThat(received.bytes()).as("bytes the peer received").isEqualTo(expected.length);
        assertThat(received.crc32c()).as("CRC32C of what the peer received").isEqualTo(TestFiles.crc32c(expected));
    }

    /**
     * Compiles {@code body} then {@code epilogue} as {@code static Object run(parameters)} with the
     * imports a reader would add, and calls it with {@code arguments}.
     */
    private Object run(String body, String parameters, String epilogue, Object... arguments) throws Exception {
        String source = "import io.zerocopy.*;\n"
                + "import java.io.*;\n"
                + "import java.net.*;\n"
                + "import java.nio.*;\n"
                + "import java.nio.channels.*;\n"
                + "import java.nio.charset.*;\n"
                + "import java.nio.file.*;\n"
                + "import java.time.*;\n"
                + "import java.util.*;\n"
                + "public class JavadocExample {\n"
                + "    public static Object run(" + parameters + ") throws Exception {\n"
                + body + "\n" + epilogue + "\n"
                + "    }\n"
                + "}\n";
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createTempDirectory(dir, "classes");
        StringWriter diagnostics = new StringWriter();
        SimpleJavaFileObject unit =
                new SimpleJavaFileObject(
                        URI.create("string:///JavadocExample.java"), SimpleJavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                        return source;
                    }
                };
        List<String> options = new ArrayList<>(List.of(
                "-classpath",
                System.getProperty("java.class.path"),
                "-d",
                classes.toString(),
                "-Xlint:all",
                "-Werror"));
        boolean ok = javac.getTask(diagnostics, null, null, options, null, List.of(unit))
                .call();
        assertThat(ok)
                .as("Javadoc example compiles:%n%s%n%s", source, diagnostics)
                .isTrue();
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Method run = Arrays.stream(loader.loadClass("JavadocExample").getMethods())
                    .filter(m -> m.getName().equals("run"))
                    .findFirst()
                    .orElseThrow();
            return run.invoke(null, arguments);
        }
    }

    private static String javaString(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
