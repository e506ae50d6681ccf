package io.zerocopy.examples.http;

import io.zerocopy.OpenDirectory;
import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import io.zerocopy.ResourceShortageException;
import io.zerocopy.SymbolicLinkException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Maps a request-target to an open file under the root, and never to anything outside it however
 * the target is spelled.
 *
 * <p>The target's path (origin-form {@code /a/b}, or the path of an absolute-form
 * {@code http://host/a/b}; the query is dropped) is split at {@code /} first and each segment is
 * percent-decoded and UTF-8-decoded strictly afterwards. A segment that decodes to {@code .} or
 * {@code ..}, or contains {@code /}, {@code \}, NUL or another control character, and a bad
 * percent-escape or byte sequence (overlong forms included), is a 400: nothing is normalised, so no
 * spelling can climb out. The segments are then opened with {@link OpenDirectory#openBeneath}, each
 * relative to the directory opened before it: a symbolic link anywhere on the way is a 403, and no
 * writer renaming or linking inside the root while the request is served can lead it outside. With
 * symlinks followed, the joined path is opened and links lead wherever they point. A directory
 * serves its {@code index.html}, opened the same way; there are no listings. A name the file system
 * cannot encode (any name outside ASCII when the JVM runs under the C locale) is a 404: no file
 * this server can open has it.
 *
 * <p>The root itself is trusted: it is resolved to its real path and, unless symlinks are followed,
 * held open ({@link OpenDirectory}) until {@link #close}, so that a request opens only the steps
 * beneath it; renamed, it is still the directory served. With a cache of open files
 * ({@link OpenFileCache}), a file is opened from it the same way, and a change on disk is seen within
 * the cache's validity. Thread-safe.
 */
final class TargetResolver {

    /** What a target resolved to: an open file with its attributes, or the status that refuses it. */
    static final class Resolution {
        final int status;
        final String reason;
        final Path path;
        /** The found file's name, the last segment of {@link #path}: what its media type goes by. */
        final String name;

        /** The file found, which the caller closes: a lease when it came from the cache of open files. */
        final OpenFile file;
        /** {@link #file}'s channel: read it at positions only, and close {@link #file} rather than it. */
        final FileChannel channel;

        final BasicFileAttributes attributes;

        private Resolution(int status, String reason, String name, OpenFile file) {
            this.status = status;
            this.reason = reason;
            this.path = file == null ? null : file.path();
            this.name = name;
            this.file = file;
            this.channel = file == null ? null : file.channel();
            this.attributes = file == null ? null : file.attributes();
        }

        static Resolution refuse(int status, String reason) {
            return new Resolution(status, reason, null, null);
        }

        /** Whether a file was found and opened; the caller then owns {@link #file} and must close it. */
        boolean found() {
            return file != null;
        }

        @Override
        public String toString() {
            return found() ? "found " + path : status + " " + reason;
        }
    }

    private static final String INDEX = "index.html";

    private final Path root;
    private final boolean followSymlinks;
    /** The root held open, beneath which every file is opened; null when links are followed. */
    private final OpenDirectory beneath;
    /** The open files kept between requests; null when there is no such cache. */
    private final OpenFileCache cache;

    /** A resolver that opens every file afresh. */
    TargetResolver(Path root, boolean followSymlinks) throws IOException {
        this(root, followSymlinks, null);
    }

    /**
     * @param root the directory to serve; resolved to its real path here
     * @param followSymlinks whether symbolic links under the root are followed, wherever they lead
     * @param cache where files are opened from, or null to open each afresh; closed by {@link #close}
     */
    TargetResolver(Path root, boolean followSymlinks, OpenFileCache cache) throws IOException {
        this.root = root.toRealPath();
        if (!Files.isDirectory(this.root)) {
            throw new IllegalArgumentException("root: " + root + " (expected: a directory)");
        }
        this.followSymlinks = followSymlinks;
        this.beneath = followSymlinks ? null : OpenDirectory.open(this.root);
        this.cache = cache;
    }

    Path root() {
        return root;
    }

    /** The cache of open files, or null when there is none. */
    OpenFileCache cache() {
        return cache;
    }

    /**
     * Closes the cache (files still being sent close as their responses end) and the root held
     * open; a resolve after this is a 500.
     */
    void close() {
        if (cache != null) {
            cache.close();
        }
        try {
            if (beneath != null) {
                beneath.close();
            }
        } catch (IOException ignored) {
            // closing a directory we only read: nothing else to do
        }
    }

    /** Resolves and opens; the caller owns the channel of a found resolution. */
    Resolution resolve(String target) {
        return resolve(target, cache);
    }

    /** As {@link #resolve}, the file opened afresh rather than taken from the cache of open files. */
    Resolution resolveAfresh(String target) {
        return resolve(target, null);
    }

    private Resolution resolve(String target, OpenFileCache from) {
        String path = pathOf(target);
        if (path == null) {
            return Resolution.refuse(400, "unsupported request target");
        }
        List<String> segments = new ArrayList<>();
        boolean trailingSlash = path.endsWith("/");
        for (String raw : path.substring(1).split("/", -1)) {
            if (raw.isEmpty()) {
                continue;
            }
            String segment = decode(raw);
            if (segment == null) {
                return Resolution.refuse(400, "malformed path segment");
            }
            segments.add(segment);
        }
        try {
            // the last step is opened, and its attributes read from that open, once (as nginx does)
            OpenFile file = open(segments, from);
            String name = segments.isEmpty() ? "" : segments.get(segments.size() - 1); // "": the root
            if (file.attributes().isDirectory()) {
                file.close();
                List<String> index = new ArrayList<>(segments);
                index.add(INDEX);
                name = INDEX;
                file = open(index, from);
            } else if (trailingSlash) {
                file.close();
                return Resolution.refuse(404, "not found");
            }
            if (!file.attributes().isRegularFile()) {
                file.close();
                return Resolution.refuse(403, "not a regular file");
            }
            return new Resolution(200, "found", name, file);
        } catch (InvalidPathException e) {
            // a name the JVM cannot encode for the file system (sun.jnu.encoding): it names no file we can open
            return Resolution.refuse(404, "not found");
        } catch (SymbolicLinkException e) {
            return Resolution.refuse(403, "symbolic link");
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.refuse(404, "not found");
        } catch (AccessDeniedException e) {
            return Resolution.refuse(403, "not readable");
        } catch (ResourceShortageException e) {
            // EMFILE, ENFILE, ENOMEM: says nothing about the file; the client may try again shortly
            return Resolution.refuse(503, "cannot open the file now: " + e.getReason());
        } catch (FileSystemException e) {
            // a FIFO or device (refused without blocking); following links, a loop of them (ELOOP)
            // or ENOTDIR on the way, which the JDK words but does not type; a name longer than the
            // file system allows, or a path longer than PATH_MAX (ENAMETOOLONG: "File name too long"
            // in glibc, "Filename too long" in musl), which names no file
            String reason = e.getReason() == null ? "" : e.getReason().toLowerCase(Locale.ROOT);
            if (reason.contains("replaced by another file")) {
                // a writer renamed over it at every try of the open: it may settle shortly
                return Resolution.refuse(503, "file replaced at every try to open it");
            }
            return reason.contains("not a directory") || reason.contains("name too long")
                    ? Resolution.refuse(404, "not found")
                    : Resolution.refuse(403, reason.contains("symbolic link") ? "symbolic link" : "not a regular file");
        } catch (IOException e) {
            return Resolution.refuse(500, "I/O error");
        }
    }

    /**
     * Opens the segments under the root: beneath it, each step relative to the last and no link
     * followed, so that no writer racing the open can lead it outside; or, following links, by the
     * joined path. From {@code from}, a cache of open files, where there is one, which looks again
     * the same way.
     */
    private OpenFile open(List<String> segments, OpenFileCache from) throws IOException {
        if (!followSymlinks) {
            return from != null ? from.openBeneath(beneath, segments) : beneath.openBeneath(segments);
        }
        Path path = root;
        for (String segment : segments) {
            path = path.resolve(segment);
        }
        return from != null ? from.open(path) : OpenFile.open(path);
    }

    /** The path of an origin-form or absolute-form (http, https) target, without its query; null otherwise. */
    static String pathOf(String target) {
        if (target.indexOf('#') >= 0) {
            return null;
        }
        String path = target;
        if (!target.startsWith("/")) {
            String lower = target.toLowerCase(Locale.ROOT);
            int scheme = lower.startsWith("http://") ? 7 : lower.startsWith("https://") ? 8 : -1;
            if (scheme < 0) {
                return null;
            }
            int end = scheme;
            while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?') {
                end++;
            }
            if (end == scheme || target.substring(scheme, end).indexOf('@') >= 0) {
                return null; // no host, or userinfo (RFC 9110 4.2.4: treat as an error)
            }
            path = end == target.length()
                    ? "/"
                    : target.charAt(end) == '?' ? "/" + target.substring(end) : target.substring(end);
        }
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    /** One percent-decoded, strictly UTF-8-decoded segment, or null if it is malformed or forbidden. */
    static String decode(String raw) {
        String segment = plain(raw) ? raw : unescape(raw);
        if (segment == null || segment.equals(".") || segment.equals("..")) {
            return null;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) {
                return null;
            }
        }
        return segment;
    }

    /** A segment with percent-escapes, decoded and strictly UTF-8-decoded; null if malformed. */
    private static String unescape(String raw) {
        ByteBuffer bytes = ByteBuffer.allocate(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? hex(raw.charAt(i + 1)) : -1;
                int lo = hi >= 0 ? hex(raw.charAt(i + 2)) : -1;
                if (lo < 0) {
                    return null;
                }
                bytes.put((byte) (hi << 4 | lo));
                i += 2;
            } else if (c > 0x20 && c < 0x7f) {
                bytes.put((byte) c);
            } else {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes.flip())
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Whether a segment is printable ASCII without escapes, and so decodes to itself. */
    private static boolean plain(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '%') {
                return false;
            }
        }
        return true;
    }

    /** The value of an ASCII hex digit, or -1 (Character.digit would also take other scripts' digits). */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
