package io.zerocopy.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A receiver on another "host": a {@link Receiver} process inside its own network namespace,
 * reached over a veth pair, so the bytes cross a (virtual) network device with a 1500-byte MTU,
 * offloads and a qdisc instead of loopback. Needs root (CAP_NET_ADMIN) and the {@code ip} tool;
 * traffic never leaves this machine. The commands, in order:
 *
 * <pre>
 * ip netns add zcbench
 * ip link add zcb0 type veth peer name zcb1
 * ip link set zcb1 netns zcbench
 * ip addr add 10.254.77.1/30 dev zcb0 &amp;&amp; ip link set zcb0 up
 * ip netns exec zcbench ip addr add 10.254.77.2/30 dev zcb1
 * ip netns exec zcbench ip link set zcb1 up
 * ip netns exec zcbench java -cp benchmarks.jar io.zerocopy.benchmarks.Receiver 10.254.77.2 0
 * # and afterwards
 * ip netns del zcbench    # removes zcb1, and with it zcb0
 * </pre>
 *
 * The /30 is private and used by nothing else here; leftovers of an interrupted run are removed
 * before setting up. The scale benchmark starts its own peer server the same way
 * ({@link #start(String, List, List)}).
 */
public final class VethPeer implements AutoCloseable {
    static final String NAMESPACE = "zcbench";
    static final String HOST_ADDRESS = "10.254.77.1";
    /** The peer's address inside the namespace. */
    public static final String PEER_ADDRESS = "10.254.77.2";

    private final Process receiver;
    private final InetSocketAddress address;

    private VethPeer(Process receiver, InetSocketAddress address) {
        this.receiver = receiver;
        this.address = address;
    }

    /**
     * Sets up the namespace and starts the receiver in it.
     *
     * @throws IOException naming the command that failed, e.g. when not permitted
     */
    static VethPeer start() throws IOException, InterruptedException {
        return start(Receiver.class.getName(), List.of("-Xmx64m"), List.of(PEER_ADDRESS, "0"));
    }

    /**
     * Sets up the namespace and starts {@code mainClass} in it, in a JVM like this one (same
     * {@code java}, same class path), with {@code jvmOptions} and {@code args}. The program must
     * print {@code READY <port>} once it listens on {@link #PEER_ADDRESS}, and exit when its
     * standard input closes.
     *
     * @throws IOException naming the command that failed, e.g. when not permitted
     */
    public static VethPeer start(String mainClass, List<String> jvmOptions, List<String> args)
            throws IOException, InterruptedException {
        tearDown();
        run("ip", "netns", "add", NAMESPACE);
        try {
            run("ip", "link", "add", "zcb0", "type", "veth", "peer", "name", "zcb1");
            run("ip", "link", "set", "zcb1", "netns", NAMESPACE);
            run("ip", "addr", "add", HOST_ADDRESS + "/30", "dev", "zcb0");
            run("ip", "link", "set", "zcb0", "up");
            run("ip", "netns", "exec", NAMESPACE, "ip", "addr", "add", PEER_ADDRESS + "/30", "dev", "zcb1");
            run("ip", "netns", "exec", NAMESPACE, "ip", "link", "set", "zcb1", "up");
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", NAMESPACE, java));
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
            command.addAll(args);
            Process receiver = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("READY ")) {
                receiver.destroyForcibly();
                throw new IOException("the receiver in namespace " + NAMESPACE + " did not start: " + line);
            }
            int port = Integer.parseInt(line.substring("READY ".length()).trim());
            return new VethPeer(receiver, new InetSocketAddress(PEER_ADDRESS, port));
        } catch (IOException | RuntimeException e) {
            tearDown();
            throw e;
        }
    }

    /** Where the receiver listens. */
    public InetSocketAddress address() {
        return address;
    }

    /** Stops the receiver and removes the namespace; an interrupt cuts the wait short, and stays set. */
    @Override
    public void close() throws IOException {
        receiver.getOutputStream().close();
        try {
            if (!receiver.waitFor(10, TimeUnit.SECONDS)) {
                receiver.destroyForcibly();
            }
            tearDown();
        } catch (InterruptedException e) {
            receiver.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Removes the namespace and the pair, if an earlier run left them. */
    private static void tearDown() throws IOException, InterruptedException {
        quietly("ip", "netns", "del", NAMESPACE);
        quietly("ip", "link", "del", "zcb0");
    }

    private static void quietly(String... command) throws IOException, InterruptedException {
        new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor(30, TimeUnit.SECONDS);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("veth peer not available (needs root and iproute2): `" + String.join(" ", command)
                    + "` failed: " + output);
        }
    }
}
