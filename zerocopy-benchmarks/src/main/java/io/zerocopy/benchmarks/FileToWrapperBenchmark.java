package io.zerocopy.benchmarks;

import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A cached file to a channel that is not the JDK's own, the stand-in for TLS: either one that reads
 * every byte in Java ({@code checksum}, see {@link ChecksumTarget}) or
 * {@code Channels.newChannel(socket.getOutputStream())} to a loopback receiver
 * ({@code socketStream}). The stream contenders write to the stream behind the channel.
 */
@State(Scope.Thread)
public class FileToWrapperBenchmark extends CopyBenchmark {
    /** The wrapper: {@code checksum} or {@code socketStream}. */
    @Param({"checksum", "socketStream"})
    public String wrapper;

    /** How to copy; see {@link Contenders}. */
    @Param({
        "default",
        "mmap",
        "buffered",
        "rawTransferTo",
        "rawMmap",
        "classic4k",
        "guava",
        "commonsIo",
        "streamTransferTo"
    })
    public String contender;

    private Path source;
    private SocketPeer socket;
    private WritableByteChannel channel;
    private OutputStream stream;

    /** Creates the source and the wrapper. */
    @Setup(Level.Trial)
    public void setUp() throws IOException, InterruptedException {
        source = Data.source(size);
        switch (wrapper) {
            case "checksum":
                ChecksumTarget checksum = new ChecksumTarget();
                channel = checksum;
                stream = checksum;
                break;
            case "socketStream":
                socket = new SocketPeer("loopback", false, size);
                stream = socket.stream();
                channel = Channels.newChannel(stream);
                break;
            default:
                throw new IllegalArgumentException("wrapper: " + wrapper + " (expected: checksum or socketStream)");
        }
        if (contender.equals("default")) {
            System.out.println("default picks: "
                    + Contenders.defaultChoice(options -> {
                        Transfers.copy(source, channel, options);
                        awaitAck();
                    }));
        }
    }

    private void awaitAck() throws IOException {
        if (socket != null) {
            socket.awaitAck();
        }
    }

    /** Copies the file once. */
    @Benchmark
    public long copy(CpuCounters cpu) throws IOException {
        cpu.start();
        long moved = Contenders.fromFile(contender, source, channel, stream);
        awaitAck();
        cpu.stop(moved);
        return Checks.moved(moved, size, contender);
    }

    /** Closes the connection, if any. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (socket != null) {
            socket.close();
        }
    }
}
