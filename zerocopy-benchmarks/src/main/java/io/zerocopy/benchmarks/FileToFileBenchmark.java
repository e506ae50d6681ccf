package io.zerocopy.benchmarks;

import io.zerocopy.Transfers;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.commons.io.FileUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A cached file to a new file in the same directory. Every operation replaces the target (the
 * library and {@code Files.copy} with {@code REPLACE_EXISTING}, the others delete it and create it
 * again): rewriting a truncated file would make ext4 start writeback on close
 * ({@code auto_da_alloc}) and measure the disk instead of the copy.
 */
@State(Scope.Thread)
public class FileToFileBenchmark extends CopyBenchmark {
    /**
     * How to copy; see {@link Contenders}, plus {@code filesCopy} ({@code Files.copy} with
     * {@code REPLACE_EXISTING}) and {@code fileUtils} (Commons IO {@code FileUtils.copyFile}).
     */
    @Param({
        "default",
        "transferTo",
        "mmap",
        "buffered",
        "rawTransferTo",
        "rawMmap",
        "classic4k",
        "guava",
        "commonsIo",
        "streamTransferTo",
        "filesCopy",
        "fileUtils"
    })
    public String contender;

    private Path source;
    private Path target;

    /** Creates the source. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        source = Data.source(size);
        target = Data.target("file-target");
        if (contender.equals("default")) {
            System.out.println("default picks: "
                    + Contenders.defaultChoice(
                            options -> Transfers.copy(source, target, options, StandardCopyOption.REPLACE_EXISTING)));
        }
    }

    /** Copies the file once. */
    @Benchmark
    public long copy(CpuCounters cpu) throws IOException {
        cpu.start();
        long moved;
        switch (contender) {
            case "filesCopy":
                Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                moved = Files.size(target);
                break;
            case "fileUtils":
                FileUtils.copyFile(source.toFile(), target.toFile());
                moved = Files.size(target);
                break;
            case "default":
                moved = Transfers.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                break;
            case "transferTo":
            case "mmap":
            case "buffered":
                moved = Transfers.copy(
                        source, target, Contenders.forced(contender), StandardCopyOption.REPLACE_EXISTING);
                break;
            default:
                Files.deleteIfExists(target);
                try (FileOutputStream out = new FileOutputStream(target.toFile())) {
                    moved = Contenders.fromFile(contender, source, out.getChannel(), out);
                }
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
