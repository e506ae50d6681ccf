package io.zerocopy.benchmarks.scale;

import io.zerocopy.benchmarks.VethPeer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running {@link PeerServer} process, on 127.0.0.1 or inside the veth namespace, and the way to
 * open connections to it.
 */
final class Peer implements AutoCloseable {
    /** The peer's JVM: a small heap is plenty, and the serial collector keeps it off the second core. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC");

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    private final Process process;
    private final VethPeer veth;
    private final InetSocketAddress address;

    private Peer(Process process, VethPeer veth, InetSocketAddress address) {
        this.process = process;
        this.veth = veth;
        this.address = address;
    }

    /** Starts a peer process listening on 127.0.0.1. */
    static Peer loopback() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                PeerServer.class.getName(),
                InetAddress.getLoopbackAddress().getHostAddress(),
                "0"));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            int port = awaitReady(process);
            return new Peer(process, null, new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /**
     * Starts a peer process in its own network namespace behind a veth pair.
     *
     * @throws IOException when that is not permitted here (needs root and iproute2)
     */
    static Peer veth() throws IOException, InterruptedException {
        List<String> args = List.of(VethPeer.PEER_ADDRESS, "0");
        VethPeer veth = VethPeer.start(PeerServer.class.getName(), JVM_OPTIONS, args);
        return new Peer(null, veth, veth.address());
    }

    /** Opens a blocking connection and writes {@code message}'s header on it. */
    SocketChannel connect(PeerProtocol.Message message, boolean noDelay) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.socket().connect(address, CONNECT_TIMEOUT_MILLIS);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
            ByteBuffer header = message.encode();
            while (header.hasRemaining()) {
                channel.write(header);
            }
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static int awaitReady(Process process) throws IOException {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String ready;
        try {
            ready = line.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the peer to start", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the peer did not start within 60 s", e);
        }
        if (ready == null || !ready.startsWith("READY ")) {
            throw new IOException("the peer did not start: " + ready);
        }
        return Integer.parseInt(ready.substring("READY ".length()).trim());
    }

    @Override
    public void close() throws IOException {
        if (veth != null) {
            veth.close();
            return;
        }
        process.getOutputStream().close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
