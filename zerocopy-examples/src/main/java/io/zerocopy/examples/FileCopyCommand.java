package io.zerocopy.examples;

import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.CopyOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code file-copy}: file to file with a buffer or with {@code transferTo} (sendfile or
 * copy_file_range underneath), like the C and Java demos people use to show sendfile.
 */
@Command(
        name = "file-copy",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Copies a file with the zerocopy library and prints bytes, time and the strategy that ran."})
final class FileCopyCommand implements Callable<Integer> {

    /** The copy methods offered. */
    enum Mode {
        /** A read/write loop through one buffer. */
        buffered,
        /** {@code FileChannel.transferTo}: the kernel copies. */
        transferTo,
        /** The library's own choice. */
        auto
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = "--mode",
            paramLabel = "M",
            description = "How to copy: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Mode mode = Mode.auto;

    @Option(
            names = "--replace",
            description = "Replace TARGET if it exists (otherwise an existing TARGET is an error).")
    boolean replace;

    @Parameters(index = "0", paramLabel = "SOURCE", description = "The file to copy.")
    Path source;

    @Parameters(index = "1", paramLabel = "TARGET", description = "The new file.")
    Path target;

    @Override
    public Integer call() throws IOException {
        String unreadable = InputFiles.unreadable(source);
        if (unreadable != null) {
            throw new ParameterException(spec.commandLine(), "SOURCE: " + unreadable);
        }
        LastResult result = new LastResult();
        TransferOptions options = TransferOptions.builder()
                .strategy(mode == Mode.auto ? null : mode.name())
                .listener(result)
                .build();
        CopyOption[] copyOptions = replace ? new CopyOption[] {StandardCopyOption.REPLACE_EXISTING} : new CopyOption[0];
        long start = System.nanoTime();
        long copied = Transfers.copy(source, target, options, copyOptions);
        double ms = (System.nanoTime() - start) / 1e6;
        TransferResult r = result.get();
        // no result when there was nothing to move (a file onto itself)
        String how = r == null ? "nothing to copy" : r.strategy() + (mode == Mode.auto ? " (" + r.reason() + ")" : "");
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "file-copy: copied %d bytes from %s to %s in %.1f ms (%.1f MB/s) by %s%n",
                copied,
                source,
                target,
                ms,
                copied / Math.max(ms, 1e-3) / 1e3,
                how);
        out.flush();
        return 0;
    }
}
