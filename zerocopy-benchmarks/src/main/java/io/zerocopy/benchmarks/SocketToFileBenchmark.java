package io.zerocopy.benchmarks;

import io.zerocopy.Transfers;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A loopback socket into a file, as in a download: every operation connects, reads until the
 * {@link Sender} ends the stream, and writes a new target file (see {@link FileToFileBenchmark} on
 * why not a truncated one). The connection set-up is in
 * every contender's time alike.
 */
@State(Scope.Thread)
public class SocketToFileBenchmark extends CopyBenchmark {
    /**
     * How to copy; see {@link Contenders}. {@code rawTransferFrom} is the JDK's
     * {@code FileChannel.transferFrom} in a loop.
     */
    @Param({
        "default",
        "buffered",
        "transferFrom",
        "rawTransferFrom",
        "classic4k",
        "guava",
        "commonsIo",
        "streamTransferTo"
    })
    public String contender;

    private Path target;
    private Sender sender;

    /** Creates the source and starts the sender. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        sender = new Sender(Data.source(size));
        target = Data.target("socket-target");
        if (contender.equals("default")) {
            System.out.println("default picks: "
                    + Contenders.defaultChoice(options -> {
                        Files.deleteIfExists(target);
                        try (SocketChannel in = SocketChannel.open(sender.address());
                                FileOutputStream out = new FileOutputStream(target.toFile())) {
                            Transfers.copy(in, out.getChannel(), options);
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
