package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Linux {@code splice(2)} from a JDK socket through a pipe to a JDK socket or file, so the bytes
 * never enter user space; the JDK has no such path (its {@code transferFrom} from a socket reads
 * through an 8 KiB heap buffer, and socket to socket always copies). The Java 22 part of a
 * multi-release jar ({@code META-INF/versions/22}); Java 17 to 21 load a stub that declines.
 *
 * <p>It needs a channel's descriptor and native calls, so it serves a request only with
 * {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED} (or {@code =io.zerocopy} on the module path;
 * {@code --add-opens} instead for a file target, whose descriptor is private) and
 * {@code --enable-native-access=ALL-UNNAMED} (or {@code =io.zerocopy}), and into a socket a kernel
 * that tells its send room ({@link SocketWaits#roomKnown}). Without them, on another system, or for
 * a channel not the JDK's own, {@link #supports} says which is missing (the first
 * such answer logged once at debug level) and selection moves on. A file target opened for
 * appending is declined (splice writes at explicit offsets); file sources are not served
 * ({@code sendfile} is the same kernel path). Stateless; one shared instance.
 */
final class SpliceStrategy extends BuiltInStrategy {
    static final SpliceStrategy INSTANCE = new SpliceStrategy();

    static final String NAME = "splice";

    private static final Logger log = LoggerFactory.getLogger(SpliceStrategy.class);
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    private SpliceStrategy() {
        super(NAME);
    }

    @Override
    String refusal(TransferFacts facts) {
        TransferRequest request = facts.request();
        if (facts.platform().os() != Platform.OperatingSystem.LINUX) {
            return "splice(2) is Linux only; this is " + facts.platform().os();
        }
        if (request.sourceKind() != ChannelKind.SOCKET) {
            return "splice reads from a JDK socket; the source is a " + request.sourceKind();
        }
        boolean file = request.targetKind() == ChannelKind.FILE;
        if (!file && request.targetKind() != ChannelKind.SOCKET) {
            return "splice writes to a JDK socket or file; the target is a " + request.targetKind();
        }
        String missing = missing(file);
        if (missing != null) {
            if (LOGGED.compareAndSet(false, true)) {
                log.debug("splice is unavailable: {}", missing);
            }
            return missing;
        }
        return file ? fileTargetProblem(request) : null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        String how = "splice(2) through a pipe from a socket to a "
                + (facts.targetKind() == ChannelKind.FILE ? "file" : "socket") + ", no copy in user space";
        return facts.openedOnVirtualThread()
                ? how + "; on a virtual thread a blocking socket that is not ready is waited for by moving the next "
                        + ParkingBridge.BYTES + " bytes through its own read or write, which parks the thread"
                : how;
    }

    /** What this JVM or kernel lacks for this pair, in words (with the flag to add where it is one), or null. */
    private static String missing(boolean fileTarget) {
        String module = Descriptors.flagTarget();
        if (fileTarget ? !Descriptors.canReadFiles() : !Descriptors.canReadSockets()) {
            return fileTarget
                    ? "splice into a file needs --add-opens java.base/sun.nio.ch=" + module
                            + " to read the file channel's descriptor"
                    : "splice needs --add-exports java.base/sun.nio.ch=" + module + " to read a socket's descriptor";
        }
        if (!SpliceStrategy.class.getModule().isNativeAccessEnabled()) {
            return "splice needs --enable-native-access=" + module + " to call splice(2)";
        }
        if (Binding.PROBLEM != null) {
            return Binding.PROBLEM;
        }
        return fileTarget || SocketWaits.roomKnown() ? null : "splice into a socket: " + SocketWaits.roomUnknown();
    }

    /** Why a file target cannot be spliced into (it appends, or its descriptor is unreadable), or null. */
    private static String fileTargetProblem(TransferRequest request) {
        int flags;
        try {
            flags = LinuxCalls.fcntl(
                    new LinuxCalls.State(), Descriptors.of(request.targetFile()), LinuxCalls.F_GETFL, 0);
        } catch (IllegalStateException e) {
            return "cannot read the target file's descriptor: " + e.getCause();
        }
        return flags >= 0 && (flags & LinuxCalls.O_APPEND) != 0
                ? "the target file is open for appending, and splice writes at explicit offsets"
                : null;
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) throws IOException {
        TransferRequest request = facts.request();
        if (!(request.source() instanceof SocketChannel)) {
            throw new IllegalArgumentException("source: " + request.source() + " (expected: a SocketChannel)");
        }
        return new SpliceStep(facts);
    }

    /** Whether the C library's functions could be bound; looked at only once native access is known to be on. */
    private static final class Binding {
        static final String PROBLEM = bind();

        private static String bind() {
            try {
                LinuxCalls.bindRelay();
                return null;
            } catch (RuntimeException | LinkageError e) {
                log.debug("splice is unavailable: the C library's functions could not be bound", e);
                return "splice(2) could not be bound through the FFM API: " + e;
            }
        }
    }
}
