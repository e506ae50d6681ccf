package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a user's first use of the library looks like: a file sent to a socket, checked at the far end. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SendFileTest {
    @TempDir
    Path dir;

    @Test
    void copy_fileToLoopbackSocket_arrivesIntact() throws Exception {
        byte[] content = new byte[3 << 20];
        new Random(42).nextBytes(content);
        Path file = Files.write(dir.resolve("payload.bin"), content);

        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket peer = server.accept(); InputStream in = peer.getInputStream()) {
                    ByteArrayOutputStream all = new ByteArrayOutputStream();
                    in.transferTo(all);
                    return all.toByteArray();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, runnable -> new Thread(runnable, "receiver").start());

            long sent;
            try (SocketChannel socket = SocketChannel.open(server.getLocalSocketAddress())) {
                sent = Transfers.copy(file, socket);
            }

            assertEquals(content.length, sent, "bytes sent");
            assertArrayEquals(content, received.get(30, TimeUnit.SECONDS), "bytes received");
        }
    }
}
