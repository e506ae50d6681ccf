package io.zerocopy.benchmarks;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A loopback socket into a file, as in a download: every operation connects, reads until the
 * {@link Sender} ends the stream, and writes a new target file (see {@link FileToFileBenchmark} on
 * why not a truncated one). The connection set-up is in
 * every contender's time alike.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@State(Scope.Thread)
public class SocketToFileBenchmark {
    /** Bytes per operation. */
    @Param({"4096", "65536", "1048576", "67108864", "1073741824"})
    public long size;

    /**
     * How to copy; see {@link Contenders}. {@code rawTransferFrom} is the JDK's
     * {@code FileChannel.transferFrom} in a loop.
     */
    @Param({"default", "buffered", "transferFrom", "rawTransferFrom", "classic4k", "guava", "commonsIo",
            "streamTransferTo"})
    public String contender;

    private Path target;
    private Sender sender;

    /** Creates the source and starts the sender. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        sender = new Sender(Data.source(size));
        target = Data.target("socket-target");
        if (contender.equals("default")) {
            System.out.println("default picks: " + Contenders.defaultChoice(copier -> {
                Files.deleteIfExists(target);
                try (SocketChannel in = SocketChannel.open(sender.address());
                        FileOutputStream out = new FileOutputStream(target.toFile())) {
                    copier.copy(in, out.getChannel());
                }
            }));
        }
    }

    /** Receives the file once. */
    @Benchmark
    public long copy(CpuCounters cpu) throws IOException {
        cpu.start();
        long moved;
        Files.deleteIfExists(target);
        try (SocketChannel in = SocketChannel.open(sender.address());
                FileOutputStream out = new FileOutputStream(target.toFile())) {
            moved = Contenders.intoFile(contender, in, in.socket().getInputStream(), out.getChannel(), out);
        }
        cpu.stop(moved);
        return Checks.moved(moved, size, contender);
    }

    /** Stops the sender and removes the target. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        sender.close();
        Files.deleteIfExists(target);
    }
}
