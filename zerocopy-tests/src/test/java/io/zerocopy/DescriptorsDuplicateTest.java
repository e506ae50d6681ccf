package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Descriptors.duplicate}, through which every native call on a JDK channel's descriptor
 * goes: a socket closed by another thread, whose number a file opened since then took, is never
 * duplicated as that file; the duplicate made by mistake is closed again, and the call fails as a
 * close makes it fail. In package {@code io.zerocopy} to reach the jar's Java 22 part (by
 * reflection: this module compiles against the Java 17 classes); this module's native-access run.
 */
class DescriptorsDuplicateTest {
    @TempDir
    Path dir;

    private Method duplicate;
    private Object state;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(NativeFiles.unavailable() == null, () -> "no native path here: " + NativeFiles.unavailable());
        Class<?> stateClass = Class.forName("io.zerocopy.LinuxCalls$State");
        Constructor<?> make = stateClass.getDeclaredConstructor();
        state = make.newInstance();
        duplicate = Class.forName("io.zerocopy.Descriptors")
                .getDeclaredMethod("duplicate", stateClass, SocketChannel.class);
    }

    @Test
    @SuppressWarnings("try") // the accepted end only has to stay open while the socket's number is taken
    void aSocketClosedAndItsNumberTakenByAFile_isNotDuplicated_andTheMistakenCopyIsClosed() throws Exception {
        Path file = Files.write(dir.resolve("other-file"), new byte[] {42});
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel socket = SocketChannel.open(server.getLocalAddress());
            try (SocketChannel accepted = server.accept()) {
                int number = fd(socket);
                socket.close(); // as another thread would, between a look at the number and a call
                try (FileChannel other = FileChannel.open(file, StandardOpenOption.READ)) {
                    assumeTrue(
                            Files.readSymbolicLink(Path.of("/proc/self/fd/" + number))
                                    .equals(file),
                            "the file took the socket's number (the lowest free one)");

                    Throwable thrown = call(socket);

                    assertThat(thrown).isInstanceOf(AsynchronousCloseException.class);
                    assertThat(openOn(file))
                            .as("descriptors on the file: its own, no copy")
                            .isEqualTo(1);
                    assertThat(other.size()).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void anOpenSocket_isDuplicated_andTheCopyIsTheSocket() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel socket = SocketChannel.open(server.getLocalAddress());
                    SocketChannel accepted = server.accept()) {
                int copy = (int) duplicate.invoke(null, state, socket);
                Path own = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd(socket)));
                assertThat(copy).isNotEqualTo(fd(socket));
                assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + copy)))
                        .isEqualTo(own);
                Object callState =
                        state.getClass().getDeclaredField("callState").get(state);
                for (Method close : Class.forName("io.zerocopy.LinuxCalls").getDeclaredMethods()) {
                    if (close.getName().equals("close") && close.getParameterCount() == 2) {
                        close.invoke(null, callState, copy);
                    }
                }
                assertThat(accepted.isOpen()).isTrue();
            }
        }
    }

    private Throwable call(SocketChannel socket) throws IllegalAccessException {
        try {
            duplicate.invoke(null, state, socket);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
    }

    private static int fd(SocketChannel socket) throws Exception {
        return (int) Class.forName("io.zerocopy.Descriptors")
                .getDeclaredMethod("of", SocketChannel.class)
                .invoke(null, socket);
    }

    private static long openOn(Path file) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).equals(file);
                        } catch (IOException gone) {
                            return false;
                        }
                    })
                    .count();
        }
    }
}
