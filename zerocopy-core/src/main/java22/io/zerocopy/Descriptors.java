package io.zerocopy;

import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.util.function.IntSupplier;

/**
 * Reads the Unix file descriptor of a JDK channel, which the JDK does not expose. Sockets: the
 * public {@code sun.nio.ch.SelChImpl.getFDVal()}, with {@code --add-exports java.base/sun.nio.ch=...}.
 * Files: {@code FileChannelImpl}'s private {@code fd} field, with {@code --add-opens} (which implies
 * the export), then the public {@code sun.nio.ch.IOUtil.fdVal(FileDescriptor)}. The {@code can*}
 * methods only look at module flags; the handles are looked up on first use, after a check said yes.
 */
final class Descriptors {
    private static final String PACKAGE = "sun.nio.ch";
    private static final Module SELF = Descriptors.class.getModule();

    /** Set once the export is seen: a module's exports only grow, and the look costs more than a call here. */
    private static volatile boolean socketsReadable;

    private Descriptors() {}

    /** The module the flags must name: {@code io.zerocopy}, or {@code ALL-UNNAMED} on the class path. */
    static String flagTarget() {
        return SELF.isNamed() ? SELF.getName() : "ALL-UNNAMED";
    }

    /** Whether socket descriptors can be read: {@code --add-exports java.base/sun.nio.ch} to this module. */
    static boolean canReadSockets() {
        if (socketsReadable) {
            return true;
        }
        boolean readable = Object.class.getModule().isExported(PACKAGE, SELF);
        if (readable) {
            socketsReadable = true; // without the export, no write per call to a field every transfer reads
        }
        return readable;
    }

    /** Whether file descriptors can be read: {@code --add-opens java.base/sun.nio.ch} to this module. */
    static boolean canReadFiles() {
        return Object.class.getModule().isOpen(PACKAGE, SELF);
    }

    /**
     * A duplicate of a JDK socket channel's descriptor ({@link #canReadSockets()} said yes), which
     * the caller closes. Between reading a channel's number and a call on it, another thread's close
     * and an open elsewhere could give the number to another file; the JDK guards its own calls
     * against that, and a call here works on this duplicate, made and then checked: a channel's close
     * marks it closed before it closes its descriptor, so a channel still open after the duplicate
     * was made was duplicated, never a number reused meanwhile.
     *
     * @throws AsynchronousCloseException if the channel was closed before the check
     */
    static int duplicate(LinuxCalls.State s, SocketChannel channel) throws IOException {
        return duplicate(s, channel, () -> of(channel));
    }

    /** {@link #duplicate(LinuxCalls.State, SocketChannel)} for a JDK file channel ({@link #canReadFiles()} said yes). */
    static int duplicate(LinuxCalls.State s, FileChannel channel) throws IOException {
        return duplicate(s, channel, () -> of(channel));
    }

    private static int duplicate(LinuxCalls.State s, Channel channel, IntSupplier number) throws IOException {
        int copy;
        try {
            copy = LinuxCalls.duplicate(s, number.getAsInt());
        } catch (IOException | IllegalStateException e) {
            if (!channel.isOpen()) {
                throw (AsynchronousCloseException) new AsynchronousCloseException().initCause(e);
            }
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        if (!channel.isOpen()) {
            LinuxCalls.close(copy); // perhaps another file's number by now: not to be used
            throw new AsynchronousCloseException();
        }
        return copy;
    }

    /** The descriptor of a JDK socket channel; only after {@link #canReadSockets()} said yes. */
    static int of(SocketChannel channel) {
        try {
            return (int) Sockets.GET_FD_VAL.invokeExact(channel);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot read the descriptor of " + channel, t);
        }
    }

    /** The descriptor of a JDK file channel; only after {@link #canReadFiles()} said yes. */
    static int of(FileChannel channel) {
        try {
            FileDescriptor fd = (FileDescriptor) Files.FD.invoke(channel);
            return (int) Files.FD_VAL.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot read the descriptor of " + channel, t);
        }
    }

    private static final class Sockets {
        static final MethodHandle GET_FD_VAL;

        static {
            try {
                Class<?> selChImpl = Class.forName(PACKAGE + ".SelChImpl");
                GET_FD_VAL = MethodHandles.lookup()
                        .findVirtual(selChImpl, "getFDVal", MethodType.methodType(int.class))
                        .asType(MethodType.methodType(int.class, SocketChannel.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    private static final class Files {
        static final MethodHandle FD;
        static final MethodHandle FD_VAL;

        static {
            try {
                Class<?> fileChannelImpl = Class.forName(PACKAGE + ".FileChannelImpl");
                FD = MethodHandles.privateLookupIn(fileChannelImpl, MethodHandles.lookup())
                        .findGetter(fileChannelImpl, "fd", FileDescriptor.class);
                FD_VAL = MethodHandles.lookup()
                        .findStatic(
                                Class.forName(PACKAGE + ".IOUtil"),
                                "fdVal",
                                MethodType.methodType(int.class, FileDescriptor.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
