package io.zerocopy.examples;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code traditional-server} and {@code relay} in a child JVM under {@code ulimit -n} {@value #LIMIT},
 * sent {@value #FLOOD} connections at once, more than the limit lets them accept: once the flood
 * closes, they close every connection and serve a new one. On JDK 17 a first socket close made
 * while no descriptor was free broke every later close in the process ({@link SocketWarmUp}); the
 * relay passed anyway, its command's strategy check having closed sockets first. JDK 25 passes
 * either way.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OutOfDescriptorsTest {

    /** The child's descriptor limit: about 35 for the JVM itself, the rest for connections. */
    static final int LIMIT = 80;

    /** Connections opened at once: more than {@value #LIMIT} descriptors hold, within the listen backlog (128). */
    static final int FLOOD = 120;

    private static final byte[] HELLO = "hello".getBytes(US_ASCII);
    private static final Pattern PORT = Pattern.compile("127\\.0\\.0\\.1:(\\d+)");

    @BeforeEach
    void bash() {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash for ulimit");
    }

    @Test
    void server_afterRunningOutOfDescriptors_closesEveryConnectionAndServesANewOne() throws Exception {
        try (ChildMain child = ChildMain.start(
                limited(),
                List.of(),
                "traditional-server",
                "--port",
                "0",
                "--connections",
                String.valueOf(FLOOD + 1))) {
            InetSocketAddress server = address(child.awaitLine("listening on", 60));
            flood(server, child, ": connection ");
            try (SocketChannel client = SocketChannel.open(server)) {
                client.write(ByteBuffer.wrap(HELLO));
            }

            Cli.Run run = child.await(60);
            assertThat(run.exit()).as(run.out()).isZero();
            assertThat(run.out())
                    .contains("stopped after " + (FLOOD + 1) + " connections (0 failed), 5 bytes received in total")
                    .doesNotContain("Exception in thread", "NoClassDefFoundError");
        }
    }

    @Test
    void relay_afterRunningOutOfDescriptors_closesEveryConnectionAndRelaysANewOne() throws Exception {
        CompletableFuture<Server.Connection> hello = new CompletableFuture<>();
        try (Server target = new Server(InetAddress.getLoopbackAddress(), 0, false, c -> {
            if (c.bytes() == HELLO.length) {
                hello.complete(c);
            }
        })) {
            int port = target.start();
            try (ChildMain child = ChildMain.start(
                    limited(),
                    List.of(),
                    "relay",
                    "--listen",
                    "0",
                    "--to",
                    "127.0.0.1:" + port,
                    "--connections",
                    String.valueOf(FLOOD + 1))) {
                InetSocketAddress relay = address(child.awaitLine("relaying", 60));
                flood(relay, child, " bytes up, ");
                try (SocketChannel client = SocketChannel.open(relay)) {
                    client.write(ByteBuffer.wrap(HELLO));
                    client.shutdownOutput();
                    ByteBuffer none = ByteBuffer.allocate(1);
                    while (client.read(none) >= 0) { // ends when the relay passes the target's end on
                        none.clear();
                    }
                }
                assertThat(hello.get(60, TimeUnit.SECONDS).complete()).isTrue();

                Cli.Run run = child.await(60);
                assertThat(run.exit()).as(run.out()).isZero();
                assertThat(run.out()).doesNotContain("Exception in thread", "NoClassDefFoundError");
                assertThat(run.out().lines().filter(line -> line.contains(": 5 bytes up, 0 bytes down, ")))
                        .as(run.out())
                        .singleElement()
                        .asString()
                        .doesNotContain("failed");
            }
        }
    }

    /** The words before {@code java} that start it under the descriptor limit, its messages in English. */
    private static List<String> limited() {
        return List.of("/bin/bash", "-c", "ulimit -n " + LIMIT + " && LC_ALL=C exec \"$@\"", "bash");
    }

    private static InetSocketAddress address(String line) {
        Matcher m = PORT.matcher(line);
        assertThat(m.find()).as(line).isTrue();
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(m.group(1)));
    }

    /**
     * Opens {@value #FLOOD} connections to {@code address}, holds them until the child says it ran
     * out of descriptors (an accept, or the relay's connection to its target, failed), closes them
     * all, and waits until the child has printed a line for each ({@code perConnection} in it).
     */
    private static void flood(InetSocketAddress address, ChildMain child, String perConnection)
            throws IOException, InterruptedException {
        List<SocketChannel> flood = new ArrayList<>();
        try {
            for (int i = 0; i < FLOOD; i++) {
                flood.add(SocketChannel.open(address)); // connected from the backlog, accepted or not
            }
            child.awaitLine("Too many open files", 60);
        } finally {
            for (SocketChannel c : flood) {
                c.close();
            }
        }
        child.awaitLineCount(perConnection, FLOOD, 60);
    }
}
