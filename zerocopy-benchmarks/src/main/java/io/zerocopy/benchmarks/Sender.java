package io.zerocopy.benchmarks;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The far end of the socket-to-file benchmark: a loopback server that sends the whole of one file
 * on every connection it accepts (with {@code transferTo}, the same for every contender), shuts
 * its output so the reader sees end of stream, and closes once the reader has closed.
 */
final class Sender implements Closeable {
    private final ServerSocketChannel server;
    private final FileChannel file;

    Sender(Path source) throws IOException {
        file = FileChannel.open(source, StandardOpenOption.READ);
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread thread = new Thread(this::serve, "sender");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    private void serve() {
        ByteBuffer rest = ByteBuffer.allocateDirect(1);
        while (server.isOpen()) {
            try (SocketChannel connection = server.accept()) {
                RawLoops.transferTo(file, file.size(), connection);
                connection.shutdownOutput();
                rest.clear();
                while (connection.read(rest) >= 0) {
                    rest.clear();
                }
            } catch (IOException e) {
                if (!server.isOpen()) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        file.close();
    }
}
