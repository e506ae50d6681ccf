package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * Opening a file through the kernel's calls, as seen by Java 17 to 21: never available. The real
 * one ({@code openat} and {@code fstat} through the FFM API) lives in the jar's Java 22 part
 * ({@code META-INF/versions/22}), which a JDK 22+ loads instead of this class.
 */
final class NativeFiles {
    private NativeFiles() {}

    /** Why files cannot be opened natively in this JVM, or null when they can. */
    static String unavailable() {
        int feature = Runtime.version().feature();
        return feature < 22
                ? "opening a file natively needs Java 22 or later (the FFM API); this JVM is Java " + feature
                : "this zerocopy-core has no Java 22 part: it was built by a JDK before 22, or its classes"
                        + " are not loaded from the multi-release jar";
    }

    /** Whether a file opened natively can be sent into {@code target} with {@code sendfile}: never here. */
    static boolean canSendTo(WritableByteChannel target) {
        return false;
    }

    /** Whether {@code file} can be sent into a target of {@code kind} with {@code sendfile}: never here. */
    static boolean canSendfile(FileChannel file, ChannelKind kind) {
        return false;
    }

    /** The file at {@code path}, opened natively: null here. */
    static NativeFile open(Path path, boolean followLinks) throws IOException {
        return null;
    }

    /** As {@link #open}, for a transfer's source: null here. */
    static NativeFile openSource(Path path, boolean watched) throws IOException {
        return null;
    }

    /** Whether names can be opened beneath a directory opened natively: never here. */
    static boolean opensBeneath() {
        return false;
    }

    /** The file at {@code segments} beneath a directory opened natively: null here. */
    static NativeFile openBeneath(
            NativeFile directory, Path directoryPath, Path file, java.util.List<String> segments, boolean inOneCall)
            throws IOException {
        return null;
    }

    /** A directory opened natively, opened again: null here. */
    static NativeFile reopen(NativeFile directory, Path path) throws IOException {
        return null;
    }
}
