package io.zerocopy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a path beneath an open directory in one {@code openat2(2)} (Linux 5.6+), with the walk's
 * last-step flags and {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS}: the
 * kernel refuses a link at any step and never leaves the directory, as the walk of
 * {@link NativeFiles#openBeneath} does one {@code openat} at a time. The walk runs instead where the
 * call cannot serve: a kernel without it ({@code ENOSYS}; not tried again in this JVM), a seccomp
 * filter that denies it ({@code EPERM}) or a kernel that knows neither these flags nor this struct
 * ({@code EINVAL}, {@code E2BIG}; not tried again once the walk then opened the file). A failure of
 * more than one segment is left to the walk too, which names the step. Thread-safe.
 */
final class Openat2Beneath {
    private static final Logger log = LoggerFactory.getLogger(Openat2Beneath.class);

    /** What {@link #open} returns when it did not call: the walk opens. */
    static final int NOT_TRIED = Integer.MIN_VALUE;

    private static final long RESOLVE =
            LinuxCalls.RESOLVE_BENEATH | LinuxCalls.RESOLVE_NO_SYMLINKS | LinuxCalls.RESOLVE_NO_MAGICLINKS;

    /** Why {@code openat2} is not tried in this JVM, or null while it is. */
    private static volatile String givenUp;

    private Openat2Beneath() {}

    /** Whether {@link #open} calls {@code openat2} in this JVM (until the kernel says otherwise); tests read it. */
    static boolean tried() {
        return givenUp == null;
    }

    /**
     * {@code segments} (plain names, at least one) beneath {@code dirFd}, opened in one call: the
     * file's descriptor; {@link #NOT_TRIED} where no call was made (given up); or {@code -errno}
     * where the walk must open it or name its failure (then tell {@link #walkOpened} if it opened).
     * Each segment is spelled as the walk spells it ({@link KernelNames#ofEntries}). {@code file}
     * names the file.
     *
     * @throws IOException the walk's failure where one segment leaves no doubt about it, or where
     *     there was no descriptor or memory for it ({@code EMFILE}, {@code ENFILE}, {@code ENOMEM})
     */
    static int open(Scratch s, int dirFd, Path file, List<String> segments) throws IOException {
        if (givenUp != null) {
            return NOT_TRIED;
        }
        MemorySegment how = s.openHow;
        how.set(ValueLayout.JAVA_LONG, LinuxCalls.OPEN_HOW_FLAGS, LinuxCalls.OPEN_READ);
        how.set(ValueLayout.JAVA_LONG, LinuxCalls.OPEN_HOW_MODE, 0L);
        how.set(ValueLayout.JAVA_LONG, LinuxCalls.OPEN_HOW_RESOLVE, RESOLVE);
        MemorySegment name = s.terminated(KernelNames.ofEntries(segments));
        int fd;
        do {
            fd = LinuxCalls.openat2(s.callState, dirFd, name, how);
        } while (fd < 0 && LinuxCalls.errno(s.callState) == LinuxCalls.EINTR);
        if (fd >= 0) {
            return fd;
        }
        int errno = LinuxCalls.errno(s.callState);
        if (errno == LinuxCalls.ENOSYS) {
            giveUp("the kernel has no openat2 (ENOSYS)");
        } else if (errno == LinuxCalls.EMFILE || errno == LinuxCalls.ENFILE || errno == LinuxCalls.ENOMEM) {
            throw NativeFiles.failure(file, errno);
        } else if (segments.size() == 1) {
            if (errno == LinuxCalls.ELOOP || errno == LinuxCalls.EXDEV) {
                throw new SymbolicLinkException(file.toString()); // the one step, a link
            }
            if (errno == LinuxCalls.ENOENT || errno == LinuxCalls.EACCES) {
                throw NativeFiles.failure(file, errno); // as the walk's one open words it
            }
        }
        return -errno;
    }

    /**
     * The walk opened what {@code openat2} failed with {@code errno}: where that was {@code EPERM},
     * {@code EINVAL} or {@code E2BIG}, the call was refused (a filter, an older kernel), not the
     * file; never tried again.
     */
    static void walkOpened(int errno) {
        if (errno == LinuxCalls.EPERM || errno == LinuxCalls.EINVAL || errno == LinuxCalls.E2BIG) {
            giveUp("openat2 failed with " + LinuxCalls.message(errno) + " (errno " + errno
                    + ") where a walk of openat opened the file");
        }
    }

    private static void giveUp(String why) {
        if (givenUp == null) {
            givenUp = why;
            log.debug("opening beneath a directory walks each step from now on: {}", why);
        }
    }
}
