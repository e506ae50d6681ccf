package io.zerocopy.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * An {@code InputStream} to an {@code OutputStream}: {@code Files.newInputStream} to
 * {@code Files.newOutputStream}, streams that are not {@code FileInputStream}/{@code FileOutputStream},
 * so the library cannot reach a channel behind them.
 */
@State(Scope.Thread)
public class StreamToStreamBenchmark extends CopyBenchmark {
    /** How to copy; see {@link Contenders}. */
    @Param({"default", "buffered", "classic4k", "guava", "commonsIo", "streamTransferTo"})
    public String contender;

    private Path source;
    private Path target;

    /** Creates the source. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        source = Data.source(size);
        target = Data.target("stream-target");
    }

    /** Copies the stream once. */
    @Benchmark
    public long copy(CpuCounters cpu) throws IOException {
        cpu.start();
        long moved;
        Files.deleteIfExists(target);
        try (InputStream in = Files.newInputStream(source);
                OutputStream out = Files.newOutputStream(target)) {
            moved = Contenders.fromStream(contender, in, out);
        }
        cpu.stop(moved);
        return Checks.moved(moved, size, contender);
    }

    /** Removes the target. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(target);
    }
}
