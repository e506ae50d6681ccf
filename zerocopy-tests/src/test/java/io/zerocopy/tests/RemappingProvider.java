package io.zerocopy.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * A default file system provider of a program's own ({@code java.nio.file.spi.DefaultFileSystemProvider}),
 * for {@link NativeNamesMain}: the JDK's, except that a file under the directory named by
 * {@code zerocopy.test.remapFrom} is the file of the same relative name under
 * {@code zerocopy.test.remapTo}. Its paths are of its own file system, so a native open of their
 * text would read another file than the JDK reads.
 */
public final class RemappingProvider extends FileSystemProvider {
    private final FileSystemProvider jdk;
    private final FileSystem jdkFiles;
    private final RemappingFileSystem files;
    private final Path from;
    private final Path to;

    /** The JDK makes a default provider with its own. */
    public RemappingProvider(FileSystemProvider jdk) {
        this.jdk = jdk;
        this.jdkFiles = jdk.getFileSystem(URI.create("file:///"));
        this.files = new RemappingFileSystem();
        String remapFrom = System.getProperty("zerocopy.test.remapFrom");
        String remapTo = System.getProperty("zerocopy.test.remapTo");
        this.from = remapFrom == null ? null : jdkFiles.getPath(remapFrom);
        this.to = remapTo == null ? null : jdkFiles.getPath(remapTo);
    }

    /** {@code path} as the JDK's own path, remapped. */
    private Path real(Path path) {
        Path jdkPath = unwrap(path);
        if (from != null && to != null) {
            Path absolute = jdkPath.toAbsolutePath();
            if (absolute.startsWith(from)) {
                return to.resolve(from.relativize(absolute));
            }
        }
        return jdkPath;
    }

    private Path wrap(Path jdkPath) {
        return (Path) Proxy.newProxyInstance(
                RemappingProvider.class.getClassLoader(), new Class<?>[] {Path.class}, new Wrapped(jdkPath));
    }

    private Path unwrap(Path path) {
        if (Proxy.isProxyClass(path.getClass()) && Proxy.getInvocationHandler(path) instanceof Wrapped wrapped) {
            return wrapped.path;
        }
        if (path.getFileSystem() == jdkFiles) {
            return path;
        }
        throw new ProviderMismatchException(path.getClass().getName());
    }

    /** A Path argument unwrapped where it is of this or the JDK's file system; the JDK path refuses another. */
    private Object unwrapArgument(Object argument) {
        if (argument instanceof Path path
                && (Proxy.isProxyClass(path.getClass()) || path.getFileSystem() == jdkFiles)) {
            return unwrap(path);
        }
        return argument;
    }

    /** A path of this file system: every method the JDK path's, Path arguments unwrapped and results wrapped. */
    private final class Wrapped implements InvocationHandler {
        final Path path;

        Wrapped(Path path) {
            this.path = path;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("getFileSystem") && method.getParameterCount() == 0) {
                return files;
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args); // built on the methods below
            }
            Object[] unwrapped = args == null ? null : args.clone();
            if (unwrapped != null) {
                for (int i = 0; i < unwrapped.length; i++) {
                    unwrapped[i] = unwrapArgument(unwrapped[i]);
                }
            }
            Object result;
            try {
                result = method.invoke(path, unwrapped);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return result instanceof Path jdkPath ? wrap(jdkPath) : result;
        }
    }

    /** The JDK's default file system, its paths wrapped. */
    private final class RemappingFileSystem extends FileSystem {
        @Override
        public FileSystemProvider provider() {
            return RemappingProvider.this;
        }

        @Override
        public void close() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public boolean isReadOnly() {
            return false;
        }

        @Override
        public String getSeparator() {
            return jdkFiles.getSeparator();
        }

        @Override
        public Iterable<Path> getRootDirectories() {
            List<Path> roots = new ArrayList<>();
            jdkFiles.getRootDirectories().forEach(root -> roots.add(wrap(root)));
            return roots;
        }

        @Override
        public Iterable<FileStore> getFileStores() {
            return jdkFiles.getFileStores();
        }

        @Override
        public Set<String> supportedFileAttributeViews() {
            return jdkFiles.supportedFileAttributeViews();
        }

        @Override
        public Path getPath(String first, String... more) {
            return wrap(jdkFiles.getPath(first, more));
        }

        @Override
        public PathMatcher getPathMatcher(String syntaxAndPattern) {
            PathMatcher matcher = jdkFiles.getPathMatcher(syntaxAndPattern);
            return path -> matcher.matches(unwrap(path));
        }

        @Override
        public UserPrincipalLookupService getUserPrincipalLookupService() {
            return jdkFiles.getUserPrincipalLookupService();
        }

        @Override
        public WatchService newWatchService() throws IOException {
            return jdkFiles.newWatchService();
        }
    }

    @Override
    public String getScheme() {
        return jdk.getScheme();
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        throw new FileSystemAlreadyExistsException();
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        return files;
    }

    @Override
    public Path getPath(URI uri) {
        return wrap(jdk.getPath(uri));
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return jdk.newByteChannel(real(path), options, attrs);
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return jdk.newFileChannel(real(path), options, attrs);
    }

    @Override
    public AsynchronousFileChannel newAsynchronousFileChannel(
            Path path, Set<? extends OpenOption> options, ExecutorService executor, FileAttribute<?>... attrs)
            throws IOException {
        return jdk.newAsynchronousFileChannel(real(path), options, executor, attrs);
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        return jdk.newInputStream(real(path), options);
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        return jdk.newOutputStream(real(path), options);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        DirectoryStream<Path> entries = jdk.newDirectoryStream(real(dir), entry -> filter.accept(wrap(entry)));
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                Iterator<Path> jdkEntries = entries.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return jdkEntries.hasNext();
                    }

                    @Override
                    public Path next() {
                        return wrap(jdkEntries.next());
                    }
                };
            }

            @Override
            public void close() throws IOException {
                entries.close();
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        jdk.createDirectory(real(dir), attrs);
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        jdk.createSymbolicLink(real(link), unwrap(target), attrs);
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        return wrap(jdk.readSymbolicLink(real(link)));
    }

    @Override
    public void delete(Path path) throws IOException {
        jdk.delete(real(path));
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        jdk.copy(real(source), real(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        jdk.move(real(source), real(target), options);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return jdk.isSameFile(real(path), real(path2));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return jdk.isHidden(real(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return jdk.getFileStore(real(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        jdk.checkAccess(real(path), modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return jdk.getFileAttributeView(real(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return jdk.readAttributes(real(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return jdk.readAttributes(real(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        jdk.setAttribute(real(path), attribute, value, options);
    }
}
