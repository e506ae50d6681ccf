package io.zerocopy.benchmarks.uring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * What one system call costs on this machine: {@code fstat} of an open file through the FFM API, as
 * the library's native path makes it, in a loop. Prints the median of the rounds' nanoseconds per
 * call. Where a call is dear (a virtual machine that traps each one), a small transfer's five calls
 * are most of its time, whatever the Java around them costs (docs/fixed-cost.md).
 *
 * <p>{@code java --enable-native-access=ALL-UNNAMED -cp benchmarks.jar
 * io.zerocopy.benchmarks.uring.SyscallCost [rounds] [calls]} (defaults: 9 rounds of 300,000 calls,
 * after one of warm-up). Linux, Java 22+, a jar built with {@code -Puring}.
 */
@SuppressWarnings("restricted")
public final class SyscallCost {
    private static final long SYS_FSTAT = System.getProperty("os.arch").equals("aarch64") ? 80 : 5;
    private static final MethodHandle OPEN = Linker.nativeLinker()
            .downcallHandle(
                    Linker.nativeLinker().defaultLookup().find("open").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
                    Linker.Option.firstVariadicArg(2));

    private SyscallCost() {}

    public static void main(String[] args) throws Throwable {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 300_000;
        Path file = Files.createTempFile("syscall-cost", ".bin");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = arena.allocate(Syscalls.CALL_STATE);
            MemorySegment stat = arena.allocate(256, 8);
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(file.toString()), 0 /* O_RDONLY */);
            if (fd < 0) {
                throw new IOException("cannot open " + file);
            }
            try {
                double[] perCall = new double[rounds];
                for (int r = -1; r < rounds; r++) {
                    long start = System.nanoTime();
                    for (int i = 0; i < calls; i++) {
                        if (Syscalls.syscall(callState, SYS_FSTAT, fd, stat.address(), 0, 0, 0, 0) < 0) {
                            throw Syscalls.failure("fstat", Syscalls.errno(callState));
                        }
                    }
                    if (r >= 0) {
                        perCall[r] = (System.nanoTime() - start) / (double) calls;
                    }
                }
                Arrays.sort(perCall);
                System.out.printf(
                        Locale.ROOT,
                        "fstat through FFM: %.0f ns per call (median of %d rounds of %d; %.0f-%.0f)%n",
                        perCall[rounds / 2],
                        rounds,
                        calls,
                        perCall[0],
                        perCall[rounds - 1]);
            } finally {
                Syscalls.close(callState, fd);
            }
        } finally {
            Files.delete(file);
        }
    }
}
