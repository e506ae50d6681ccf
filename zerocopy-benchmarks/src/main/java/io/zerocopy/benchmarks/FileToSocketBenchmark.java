package io.zerocopy.benchmarks;

import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A cached file to a TCP socket whose peer is on loopback or behind a veth pair in another network
 * namespace. One operation sends the whole file and lasts until the receiver acknowledges the last
 * byte. The parameters span the full matrix; {@link CommittedRun} runs a subset.
 */
@State(Scope.Thread)
public class FileToSocketBenchmark extends CopyBenchmark {
    /** Where the receiver runs: {@code loopback} or {@code veth}. */
    @Param({"loopback", "veth"})
    public String peer;

    /** The sender's {@code TCP_NODELAY}. */
    @Param({"false", "true"})
    public boolean noDelay;

    /** How to copy; see {@link Contenders}. */
    @Param({
        "default",
        "transferTo",
        "mmap",
        "buffered",
        "bufferedMss",
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

    /** Creates the source and connects to a new receiver. */
    @Setup(Level.Trial)
    public void setUp() throws IOException, InterruptedException {
        source = Data.source(size);
        socket = new SocketPeer(peer, noDelay, size);
        if (contender.equals("default")) {
            System.out.println("default picks: "
                    + Contenders.defaultChoice(options -> {
                        Transfers.copy(source, socket.channel(), options);
                        socket.awaitAck();
                    }));
        }
    }

    /** Sends the file once. */
    @Benchmark
    public long copy(CpuCounters cpu) throws IOException {
        cpu.start();
        long moved = Contenders.fromFile(contender, source, socket.channel(), socket.stream());
        socket.awaitAck();
        cpu.stop(moved);
        return Checks.moved(moved, size, contender);
    }

    /** Closes the connection and stops the receiver. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        socket.close();
    }
}
