package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.benchmarks.Data;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The fixed cost of one transfer: a small cached file to a drained loopback socket, per verb of the
 * library and per raw loop, with the file opened per transfer or already open. {@link FixedCostRun}
 * runs the same contenders interleaved in one JVM, which is how docs/fixed-cost.md compares them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FixedCostBenchmark {
    /** File size in bytes. */
    @Param({"0", "4096", "8192", "65536"})
    public int size;

    /** How to send it; see {@link FixedCostContenders}. */
    @Param({
        "copyPath",
        "copySlice",
        "copySliceOpen",
        "handle",
        "rawTransferTo",
        "rawTransferToOpen",
        "rawPreadWrite",
        "rawPreadWriteOpen"
    })
    public String contender;

    private FixedCostContenders sender;
    private DrainedSocket socket;
    private FileChannel open;
    private FixedCostContenders.Ends ends;

    /** Creates the file, opens it once for the {@code ...Open} contenders, and connects the drained socket. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        sender = FixedCostContenders.of(contender);
        Path path = Data.source(Data.dir(), size);
        open = FileChannel.open(path, StandardOpenOption.READ);
        socket = new DrainedSocket();
        ends = new FixedCostContenders.Ends(path, size, open, socket.channel());
    }

    /** Sends the file once. */
    @Benchmark
    public long send() throws IOException {
        return sender.send(ends);
    }

    /** Closes the socket and the file. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        socket.close();
        open.close();
    }
}
