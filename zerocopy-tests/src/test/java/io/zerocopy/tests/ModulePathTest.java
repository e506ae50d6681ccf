package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.Transfers;
import io.zerocopy.spi.TransferStrategy;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The library as a modular application sees it: a JVM started with {@code --module-path}, an
 * application module that {@code requires io.zerocopy}, and a third-party module that registers a
 * strategy with {@code provides}. Checks that the modules resolve (including {@code jdk.unsupported},
 * needed to unmap promptly on Java 17 to 21), that the provided strategy can be forced by name, and
 * that no mapping of the source is left after an mmap copy returns.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModulePathTest {

    @TempDir
    Path dir;

    @Test
    void library_onTheModulePath_resolvesFindsProvidersAndUnmaps() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "needs /proc/self/maps (Linux)");
        String modulePath = String.join(
                File.pathSeparator,
                location(Transfers.class),
                location(TransferStrategy.class),
                location(LoggerFactory.class));

        Path provider = compile(
                "com.example.splice",
                modulePath,
                List.of(
                        source(
                                "module-info",
                                "module com.example.splice {\n"
                                        + "    requires io.zerocopy.api;\n"
                                        + "    provides io.zerocopy.spi.TransferStrategy with com.example.splice.NamedStrategy;\n"
                                        + "}\n"),
                        source(
                                "com/example/splice/NamedStrategy",
                                "package com.example.splice;\n"
                                        + "import io.zerocopy.spi.*;\n"
                                        + "public final class NamedStrategy implements TransferStrategy {\n"
                                        + "    public String name() { return \"module-provided\"; }\n"
                                        + "    public Support supports(TransferRequest r) { return Support.no(\"test only\"); }\n"
                                        + "    public TransferStep open(TransferRequest r) { throw new UnsupportedOperationException(); }\n"
                                        + "}\n")));
        Path app = compile(
                "demo.app",
                modulePath,
                List.of(
                        source("module-info", "module demo.app { requires io.zerocopy; }\n"),
                        source(
                                "demo/App",
                                "package demo;\n"
                                        + "import io.zerocopy.*;\n"
                                        + "import java.nio.channels.*;\n"
                                        + "import java.nio.file.*;\n"
                                        + "public class App {\n"
                                        + "    public static void main(String[] args) throws Exception {\n"
                                        + "        Path file = Path.of(args[0]);\n"
                                        + "        long n = Transfers.copy(file, Channels.newChannel(java.io.OutputStream.nullOutputStream()),\n"
                                        + "                TransferOptions.builder().strategy(\"mmap\").mappedWindow(1 << 20).build());\n"
                                        + "        long maps = Files.readAllLines(Path.of(\"/proc/self/maps\")).stream()\n"
                                        + "                .filter(l -> l.endsWith(file.toString())).count();\n"
                                        + "        TransferOptions.builder().strategy(\"module-provided\").build();\n"
                                        + "        System.out.println(\"copied=\" + n + \" mappings=\" + maps + \" provider=found\");\n"
                                        + "    }\n"
                                        + "}\n")));

        Path data = Files.write(dir.resolve("data.bin"), new byte[5 << 20]);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        javaBin,
                        "--module-path",
                        String.join(File.pathSeparator, modulePath, provider.toString(), app.toString()),
                        "-m",
                        "demo.app/demo.App",
                        data.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("output.txt").toFile())
                .start();
        try {
            assertThat(process.waitFor(90, TimeUnit.SECONDS))
                    .as("the child JVM ends")
                    .isTrue();
        } finally {
            process.destroyForcibly();
        }
        String output = Files.readString(dir.resolve("output.txt"));

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("copied=" + (5 << 20) + " mappings=0 provider=found");
    }

    private Path compile(String module, String modulePath, List<String[]> sources) throws IOException {
        Path src = dir.resolve("src-" + module);
        Path out = dir.resolve("mods").resolve(module);
        List<String> args =
                new ArrayList<>(List.of("--module-path", modulePath, "-d", out.toString(), "-Xlint:all", "-Werror"));
        for (String[] s : sources) {
            Path file = src.resolve(s[0] + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, s[1]);
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean ok = javac.getTask(
                        diagnostics,
                        null,
                        null,
                        args.subList(0, 6),
                        null,
                        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                                .getJavaFileObjectsFromStrings(args.subList(6, args.size())))
                .call();
        assertThat(ok).as("compiling %s:%n%s", module, diagnostics).isTrue();
        return out;
    }

    private static String[] source(String path, String text) {
        return new String[] {path, text};
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }
}
