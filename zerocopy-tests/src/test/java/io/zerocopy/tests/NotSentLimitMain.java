package io.zerocopy.tests;

import io.zerocopy.TransferOptions;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The child JVM of {@code NativePromisesTest}'s limit on unsent bytes, run where the system sets
 * one ({@code net.ipv4.tcp_notsent_lowat}, in a network namespace of its own): the file given is
 * copied natively on a platform thread into a blocking socket whose peer reads nothing, with a
 * 1 MiB send buffer, and the copy is ended by another thread's close, then (a new copy) by the
 * stall timeout. Prints {@code close|stall ended EXCEPTION} or {@code close|stall STUCK}.
 */
public final class NotSentLimitMain {
    private NotSentLimitMain() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        System.out.println("close " + ending(file, false));
        System.out.println("stall " + ending(file, true));
        System.exit(0); // a copy still stuck in the kernel would keep the JVM alive
    }

    private static String ending(Path file, boolean byStall) throws Exception {
        CountDownLatch progressed = new CountDownLatch(1);
        TransferOptions options = TransferOptions.builder()
                .stallTimeout(byStall ? Duration.ofSeconds(1) : Duration.ofMinutes(10))
                .listener(new RecordingListener(bytes -> progressed.countDown()))
                .build();
        LoopbackReceiver receiver = LoopbackReceiver.gated(1 << 20);
        SocketChannel channel = receiver.connectChannel();
        CompletableFuture<Throwable> outcome = NativePromisesTest.copyOnAPlatformThread(file, channel, options);
        if (!progressed.await(30, TimeUnit.SECONDS)) {
            return "NO-PROGRESS";
        }
        if (!byStall) {
            channel.close();
        }
        try {
            Throwable failure = outcome.get(10, TimeUnit.SECONDS);
            return "ended "
                    + (failure == null ? "without failing" : failure.getClass().getSimpleName());
        } catch (TimeoutException e) {
            return "STUCK";
        }
    }
}
