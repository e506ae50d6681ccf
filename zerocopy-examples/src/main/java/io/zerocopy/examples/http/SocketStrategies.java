package io.zerocopy.examples.http;

import io.zerocopy.FileRegion;
import io.zerocopy.OpenFile;
import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of the library's strategies can send a file to a socket on this JVM, as the server sends
 * its bodies: a head gathered with a file that the library opened ({@link OpenFile}), into a
 * loopback socket in the engine's blocking mode. The library itself is asked: forced to a strategy
 * that cannot serve a transfer, it refuses with an {@code IllegalArgumentException} when the
 * transfer is opened, before a byte moves. {@code transferFrom} writes into files only;
 * {@code splice} and {@code native} need Java 22 (and {@code native} the flags that enable it).
 */
final class SocketStrategies {

    /** The built-in strategies, in the order the help names them. */
    static final List<String> BUILT_IN = List.of("transferTo", "buffered", "mmap", "transferFrom", "splice", "native");

    /**
     * Bytes of the file the probe sends: more than the library gathers with the head (a loopback
     * segment, 64 KiB), so that the forced strategy must send the rest. Sparse: nothing is written.
     */
    private static final int FILE_BYTES = 1 << 20;

    private SocketStrategies() {}

    /**
     * The built-in strategies that can send a file to a socket in this mode, in {@link #BUILT_IN}
     * order.
     *
     * @throws IOException if the probe's file or sockets cannot be made
     */
    static List<String> thatCanSend(boolean blocking) throws IOException {
        List<String> can = new ArrayList<>();
        for (String name : BUILT_IN) {
            if (canSend(name, blocking)) {
                can.add(name);
            }
        }
        return can;
    }

    /**
     * Whether the library, forced to {@code strategy}, can send a file to a socket in this mode.
     *
     * @throws IllegalArgumentException if the library has no strategy of this name
     * @throws IOException if the probe's file or sockets cannot be made
     */
    static boolean canSend(String strategy, boolean blocking) throws IOException {
        TransferOptions options = TransferOptions.builder().strategy(strategy).build();
        Path path = Files.createTempFile("http-server-probe", ".bin");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            try (FileChannel write = FileChannel.open(path, StandardOpenOption.WRITE)) {
                write.write(ByteBuffer.allocate(1), FILE_BYTES - 1);
            }
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (OpenFile file = OpenFile.open(path);
                    SocketChannel client = SocketChannel.open(server.getLocalAddress());
                    SocketChannel accepted = server.accept()) {
                client.configureBlocking(blocking);
                FileRegion region = FileRegion.of(file.channel(), 0, FILE_BYTES)
                        .withPrefix(new ByteBuffer[] {ByteBuffer.allocate(1)});
                Transfer transfer;
                try {
                    transfer = Transfers.open(region, client, options);
                } catch (IllegalArgumentException e) {
                    return false;
                }
                transfer.close(); // opened, so the strategy serves it: closed unsent
                return true;
            }
        } finally {
            Files.deleteIfExists(path);
        }
    }
}
