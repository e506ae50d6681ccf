package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * What an application loaded by a class loader of its own does with the library, for
 * {@link ClassLoaderUnloadTest}: a 1000-byte file to a loopback socket, which takes a buffer from
 * the library's pool (or, with native access, the memory of its native calls) on the calling thread.
 */
public final class UnloadWorker {
    private UnloadWorker() {}

    /** Sends {@code file} to a loopback socket; the bytes that arrived. */
    public static long send(Path file) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel sender = SocketChannel.open(server.getLocalAddress());
                    SocketChannel receiver = server.accept()) {
                Transfers.copy(file, sender);
                sender.shutdownOutput();
                ByteBuffer into = ByteBuffer.allocate(64 * 1024);
                long received = 0;
                for (int n = receiver.read(into); n >= 0; n = receiver.read(into)) {
                    received += n;
                    into.clear();
                }
                return received;
            }
        }
    }
}
