package io.zerocopy.examples;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Readies what the JDK sets up on its first sockets, while descriptors are free: one loopback
 * connection, opened, accepted and closed. JDK 17 opens a socket it keeps for good on the first
 * socket close ({@code sun.nio.ch.FileDispatcherImpl}, two descriptors while it does); if that close
 * comes when the process has none free ({@code EMFILE}), the class fails to initialise and every
 * later socket close throws {@code NoClassDefFoundError}: a server out of descriptors once leaks
 * every connection from then on. JDK 25 sets it up on the first socket open. Every example that
 * accepts connections runs this before it listens; tests run it before they count descriptors.
 */
public final class SocketWarmUp {

    private SocketWarmUp() {}

    /**
     * Opens, accepts and closes one connection on 127.0.0.1.
     *
     * @throws IOException if the connection cannot be made
     */
    public static void run() throws IOException {
        try (ServerSocketChannel server =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept()) {
            if (!client.isConnected() || accepted == null) {
                throw new IOException("loopback warm-up connection failed");
            }
        }
    }
}
