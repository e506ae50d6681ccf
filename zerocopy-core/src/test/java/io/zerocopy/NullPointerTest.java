package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.google.common.testing.NullPointerTester;
import com.google.common.testing.NullPointerTester.Visibility;
import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public constructor and method of every public type of {@code io.zerocopy} and
 * {@code io.zerocopy.spi} rejects a null reference argument with a {@code NullPointerException}
 * (guava-testlib's {@link NullPointerTester}), unless the parameter is listed below as one where
 * null means something.
 *
 * <p>The public types are read from the compiled classes of each exported package, not from a
 * list: a new public type fails {@link #everyPublicType_hasAnInstanceOrIsAbstract} until it is given
 * an instance here.
 */
class NullPointerTest {

    @TempDir
    Path dir;

    private Path file;
    private FileChannel channel;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void openFixtures() throws IOException {
        file = Files.write(dir.resolve("source"), new byte[] {1, 2, 3, 4});
        channel = FileChannel.open(file, StandardOpenOption.READ);
        opened.add(channel);
    }

    @AfterEach
    void closeFixtures() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    /** A tester that can make every parameter type of the API. */
    private NullPointerTester tester() throws IOException {
        WritableByteChannel sink = Channels.newChannel(new ByteArrayOutputStream());
        OpenDirectory directory = OpenDirectory.open(dir);
        opened.add(directory);
        return new NullPointerTester()
                .setDefault(OpenDirectory.class, directory)
                .setDefault(Path.class, file)
                .setDefault(FileChannel.class, channel)
                .setDefault(ReadableByteChannel.class, channel)
                .setDefault(WritableByteChannel.class, sink)
                .setDefault(FileRegion.class, FileRegion.of(channel, 0, 4))
                .setDefault(TransferOptions.class, TransferOptions.defaults())
                .setDefault(TransferListener.class, TransferListener.NONE)
                .setDefault(Duration.class, Duration.ofSeconds(1))
                .setDefault(Executor.class, Runnable::run)
                .setDefault(ByteBuffer.class, ByteBuffer.allocate(1))
                .setDefault(ChannelKind.class, ChannelKind.OTHER)
                .setDefault(String.class, "buffered");
    }

    /**
     * How to make an instance of each public concrete type, so that its instance methods are tested
     * too. Interfaces a caller or author implements have none: only their static methods are tested.
     */
    private Map<Class<?>, Supplier<Object>> instances() {
        Map<Class<?>, Supplier<Object>> m = new LinkedHashMap<>();
        m.put(Transfers.class, null); // static verbs only
        m.put(FileRegion.class, () -> FileRegion.of(channel, 1, 2));
        m.put(OpenFile.class, () -> {
            try {
                OpenFile f = OpenFile.open(file);
                opened.add(f);
                return f;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        m.put(OpenDirectory.class, () -> {
            try {
                OpenDirectory d = OpenDirectory.open(dir);
                opened.add(d);
                return d;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        m.put(OpenFileCache.class, () -> {
            OpenFileCache c = OpenFileCache.create(4, Duration.ofSeconds(1));
            opened.add(c);
            return c;
        });
        m.put(OpenFileCache.Stats.class, () -> new OpenFileCache.Stats(1, 2, 3, 4, 5, 6));
        m.put(SymbolicLinkException.class, () -> new SymbolicLinkException("link"));
        m.put(TransferOptions.class, TransferOptions::defaults);
        m.put(TransferOptions.Builder.class, TransferOptions::builder);
        m.put(
                TransferResult.class,
                () -> new TransferResult(4, TestFacts.choice(BufferedStrategy.INSTANCE, "test"), Duration.ofMillis(1)));
        m.put(Transfer.class, () -> {
            try {
                Transfer t = Transfers.open(file, Channels.newChannel(new ByteArrayOutputStream()));
                opened.add(t);
                return t;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        m.put(TransferListener.class, () -> TransferListener.NONE);
        m.put(TransferException.class, () -> new TransferException("test", 1, null));
        m.put(TruncatedSourceException.class, () -> new TruncatedSourceException(1, 4, 1, null));
        m.put(TransferTimeoutException.class, () -> new TransferTimeoutException(1, Duration.ofSeconds(1)));
        m.put(ResourceShortageException.class, () -> new ResourceShortageException("file", "Too many open files"));
        m.put(Support.class, () -> Support.yes("test"));
        m.put(ChannelKind.class, () -> ChannelKind.FILE);
        m.put(
                TransferRequest.class,
                () -> TransferRequest.builder()
                        .source(channel, ChannelKind.FILE)
                        .target(Channels.newChannel(new ByteArrayOutputStream()), ChannelKind.OTHER)
                        .slice(0, 4)
                        .build());
        m.put(TransferRequest.Builder.class, TransferRequest::builder);
        m.put(TransferStrategy.class, null); // implemented by authors
        m.put(TransferStep.class, null); // implemented by authors
        m.put(TransferStep.Side.class, () -> TransferStep.Side.SOURCE);
        return m;
    }

    @Test
    void everyPublicType_hasAnInstanceOrIsAbstract() throws Exception {
        assertThat(publicTypes())
                .as("public types of io.zerocopy and io.zerocopy.spi")
                .containsExactlyInAnyOrderElementsOf(instances().keySet());
    }

    @TestFactory
    Stream<DynamicTest> publicType_rejectsNull() throws Exception {
        Map<Class<?>, Supplier<Object>> instances = instances();
        return publicTypes().stream()
                .map(type -> dynamicTest(type.getName(), () -> {
                    NullPointerTester tester = tester();
                    ignoreNullMeaningful(tester);
                    tester.testStaticMethods(type, Visibility.PUBLIC);
                    if (Throwable.class.isAssignableFrom(type)) {
                        exceptionConstructors_rejectNullExceptMessageAndCause(type);
                    } else {
                        tester.testConstructors(type, Visibility.PUBLIC);
                    }
                    Supplier<Object> instance = instances.get(type);
                    if (instance != null) {
                        tester.testInstanceMethods(instance.get(), Visibility.PUBLIC);
                    }
                }));
    }

    /** The parameters where null is part of the contract; each says what null means. */
    private static void ignoreNullMeaningful(NullPointerTester tester) throws NoSuchMethodException {
        // The listener's callbacks are the library's to call; its no-op defaults need not check.
        for (var m : TransferListener.class.getMethods()) {
            if (m.getDeclaringClass() == TransferListener.class && !Modifier.isStatic(m.getModifiers())) {
                tester.ignore(m);
            }
        }
        // strategy(null) means automatic selection (its Javadoc says so).
        tester.ignore(TransferOptions.Builder.class.getMethod("strategy", String.class));
    }

    /**
     * An exception's message and cause may be null, as in every JDK exception; any other reference
     * parameter may not. (NullPointerTester can skip a constructor parameter only through a
     * {@code @Nullable} annotation, which the API does not use.)
     */
    private static void exceptionConstructors_rejectNullExceptMessageAndCause(Class<?> type) throws Exception {
        for (Constructor<?> c : type.getConstructors()) {
            Class<?>[] parameters = c.getParameterTypes();
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i].isPrimitive() || parameters[i] == String.class || parameters[i] == Throwable.class) {
                    continue;
                }
                Object[] args = new Object[parameters.length];
                for (int j = 0; j < parameters.length; j++) {
                    args[j] = j == i ? null : exceptionArgument(parameters[j]);
                }
                int index = i;
                assertThatThrownBy(() -> c.newInstance(args))
                        .as("%s with null parameter %d", c, index)
                        .isInstanceOf(InvocationTargetException.class)
                        .cause()
                        .isInstanceOf(NullPointerException.class);
            }
        }
    }

    private static Object exceptionArgument(Class<?> parameter) {
        if (parameter == long.class) {
            return 1L;
        }
        if (parameter == Duration.class) {
            return Duration.ofSeconds(1);
        }
        if (parameter == String.class) {
            return "message";
        }
        if (parameter == Throwable.class) {
            return new IOException("cause");
        }
        throw new AssertionError("no argument of " + parameter + " for an exception constructor: add one here");
    }

    /**
     * The public top-level and member types of the exported packages, read from the class files next
     * to {@link Transfers} and {@link TransferStrategy} (a directory in a reactor build, or a jar).
     */
    static List<Class<?>> publicTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        List<Class<?>> types = new ArrayList<>();
        for (Class<?> anchor : List.of(Transfers.class, TransferStrategy.class)) {
            for (String name : classNames(anchor)) {
                Class<?> type = Class.forName(name, false, anchor.getClassLoader());
                if (isPublicApi(type)) {
                    types.add(type);
                }
            }
        }
        types.sort(Comparator.comparing(Class::getName));
        return types;
    }

    private static boolean isPublicApi(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isSynthetic()) {
                return false;
            }
        }
        return true;
    }

    private static TreeSet<String> classNames(Class<?> anchor) throws IOException, URISyntaxException {
        String packagePath = anchor.getPackageName().replace('.', '/');
        Path location = Path.of(
                anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(location)) {
            return classNames(location.resolve(packagePath), anchor.getPackageName());
        }
        try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + location.toUri()), Map.of())) {
            return classNames(jar.getPath(packagePath), anchor.getPackageName());
        }
    }

    private static TreeSet<String> classNames(Path packageDir, String packageName) throws IOException {
        try (Stream<Path> files = Files.list(packageDir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.equals("package-info.class"))
                    .map(n -> packageName + "." + n.substring(0, n.length() - ".class".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
