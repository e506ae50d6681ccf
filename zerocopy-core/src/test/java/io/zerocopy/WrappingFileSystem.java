package io.zerocopy;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file system of the test's own, as small as it can be: its paths wrap the default file system's,
 * and its files open as a {@link Channel}, a {@code FileChannel} subclass that lives in the test code
 * (so the library sees a FileChannel that is not the JDK's own) and counts the calls the library must
 * not make: relative reads that would move its position, {@code transferTo}, and {@code map} (which
 * it refuses, as zipfs does).
 */
final class WrappingFileSystem extends FileSystem {
    private final Provider provider = new Provider();
    private final FileSystem inner = FileSystems.getDefault();
    /** Every channel opened through this file system, in order. */
    final List<Channel> opened = Collections.synchronizedList(new ArrayList<>());

    /** The wrapped form of a default-file-system path. */
    Path wrap(Path path) {
        return (Path) Proxy.newProxyInstance(
                Path.class.getClassLoader(), new Class<?>[] {Path.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getFileSystem":
                            return this;
                        case "equals":
                            return args[0] instanceof Path
                                    && ((Path) args[0]).getFileSystem() == this
                                    && path.equals(unwrap((Path) args[0]));
                        default:
                            break;
                    }
                    Object[] plain = args == null ? null : args.clone();
                    for (int i = 0; plain != null && i < plain.length; i++) {
                        if (plain[i] instanceof Path && ((Path) plain[i]).getFileSystem() == this) {
                            plain[i] = unwrap((Path) plain[i]);
                        }
                    }
                    try {
                        Object result = method.invoke(path, plain);
                        return result instanceof Path ? wrap((Path) result) : result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The default-file-system path behind a wrapped one. */
    static Path unwrap(Path path) {
        return Path.of(path.toString());
    }

    @Override
    public FileSystemProvider provider() {
        return provider;
    }

    @Override
    public void close() {}

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
        return inner.getSeparator();
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        List<Path> roots = new ArrayList<>();
        inner.getRootDirectories().forEach(root -> roots.add(wrap(root)));
        return roots;
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return inner.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return inner.supportedFileAttributeViews();
    }

    @Override
    public Path getPath(String first, String... more) {
        return wrap(inner.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        return inner.getPathMatcher(syntaxAndPattern);
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return inner.getUserPrincipalLookupService();
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException();
    }

    /** The provider: every operation on the default file system's path behind a wrapped one. */
    private final class Provider extends FileSystemProvider {
        @Override
        public String getScheme() {
            return "wrapped";
        }

        @Override
        public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileSystem getFileSystem(URI uri) {
            return WrappingFileSystem.this;
        }

        @Override
        public Path getPath(URI uri) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
                throws IOException {
            Channel channel = new Channel(FileChannel.open(unwrap(path), options, attrs));
            opened.add(channel);
            return channel;
        }

        @Override
        public SeekableByteChannel newByteChannel(
                Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
            return newFileChannel(path, options, attrs);
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
            Files.createDirectory(unwrap(dir), attrs);
        }

        @Override
        public void delete(Path path) throws IOException {
            Files.delete(unwrap(path));
        }

        @Override
        public void copy(Path source, Path target, CopyOption... options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void move(Path source, Path target, CopyOption... options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isSameFile(Path path, Path path2) throws IOException {
            return Files.isSameFile(unwrap(path), unwrap(path2));
        }

        @Override
        public boolean isHidden(Path path) throws IOException {
            return Files.isHidden(unwrap(path));
        }

        @Override
        public FileStore getFileStore(Path path) throws IOException {
            return Files.getFileStore(unwrap(path));
        }

        @Override
        public void checkAccess(Path path, AccessMode... modes) throws IOException {
            Path plain = unwrap(path);
            plain.getFileSystem().provider().checkAccess(plain, modes);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
            return Files.getFileAttributeView(unwrap(path), type, options);
        }

        @Override
        public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
                throws IOException {
            return Files.readAttributes(unwrap(path), type, options);
        }

        @Override
        public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
                throws IOException {
            return Files.readAttributes(unwrap(path), attributes, options);
        }

        @Override
        public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
            Files.setAttribute(unwrap(path), attribute, value, options);
        }
    }

    /** A FileChannel of no JDK class: delegates to a JDK one and counts what must not be called. */
    static final class Channel extends FileChannel {
        final FileChannel inner;
        final AtomicInteger relativeReads = new AtomicInteger();
        final AtomicInteger positionalReads = new AtomicInteger();
        final AtomicInteger transfersTo = new AtomicInteger();
        final AtomicInteger maps = new AtomicInteger();

        Channel(FileChannel inner) {
            this.inner = inner;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            relativeReads.incrementAndGet();
            return inner.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            relativeReads.incrementAndGet();
            return inner.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            positionalReads.incrementAndGet();
            return inner.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return inner.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return inner.write(srcs, offset, length);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return inner.write(src, position);
        }

        @Override
        public long position() throws IOException {
            return inner.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            inner.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return inner.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            inner.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            inner.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            transfersTo.incrementAndGet();
            return inner.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return inner.transferFrom(src, position, count);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            maps.incrementAndGet();
            throw new UnsupportedOperationException("this file system does not map files");
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return inner.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return inner.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            inner.close();
        }
    }
}
