package io.zerocopy.benchmarks.scale;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.benchmarks.RawLoops;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry of contenders, in the order they are listed in results: add one here and every
 * plan that names it (or takes all of its pair's) runs it.
 *
 * <p>File → socket: {@code default} ({@code Transfers.copy(Path, WritableByteChannel)}), each
 * strategy forced ({@code transferTo}, {@code mmap}, {@code buffered}), {@code rawTransferTo} (a
 * plain loop of {@code FileChannel.transferTo} asking for all that is left), {@code classic4k} (a
 * 4 KiB array read from a {@code FileInputStream} and written to the socket's stream) and
 * {@code rawSelectorLoop} (one selector thread for all N non-blocking sockets, one raw
 * {@code transferTo} per write readiness: the reference for event loops) and {@code handleLoop}
 * (the same loop driving the library's {@code Transfer} handles). {@code jdkPath} is the default
 * with the {@code native} strategy excluded by its options: the file opened and sent through a JDK
 * {@code FileChannel}, as without native access or with {@code -Dzerocopy.exclude=native}, so that a
 * JVM with native access compares both paths in the same run (without it, {@code jdkPath} and
 * {@code default} are one path). It runs only when {@code --contenders} names it: the plans leave
 * it out ({@link #planned}), so their runs stay what they were.
 *
 * <p>Socket → file: {@code default} ({@code Transfers.copy(ReadableByteChannel,
 * WritableByteChannel)} into a {@code FileChannel}), {@code buffered} and {@code transferFrom}
 * forced, {@code rawTransferFrom} (a plain loop of {@code FileChannel.transferFrom}) and
 * {@code classic4k} (the socket's stream into a {@code FileOutputStream} through a 4 KiB array).
 */
final class ScaleContenders {
    private static final Map<String, Contender> SEND = new LinkedHashMap<>();
    private static final Map<String, Contender> RECEIVE = new LinkedHashMap<>();
    /** One options per forced strategy, made once and shared, as a server would keep it. */
    private static final Map<String, TransferOptions> FORCED = Map.of(
            "transferTo", forcing("transferTo"),
            "mmap", forcing("mmap"),
            "buffered", forcing("buffered"),
            "transferFrom", forcing("transferFrom"));
    /** The default's choice with the natively opened file excluded: the JDK path. */
    private static final TransferOptions NO_NATIVE =
            TransferOptions.builder().exclude("native").build();

    static {
        send("default", (source, target) -> Transfers.copy(source, target));
        send("transferTo", (source, target) -> Transfers.copy(source, target, forced("transferTo")));
        send("mmap", (source, target) -> Transfers.copy(source, target, forced("mmap")));
        send("buffered", (source, target) -> Transfers.copy(source, target, forced("buffered")));
        send("jdkPath", (source, target) -> Transfers.copy(source, target, NO_NATIVE));
        send("rawTransferTo", RawLoops::transferTo);
        send("classic4k", ScaleContenders::classic4kSend);
        loop("rawSelectorLoop", TransferToStep::new);
        loop("handleLoop", HandleStep::new);

        receive("default", (source, target) -> {
            try (FileChannel out = create(target)) {
                return Transfers.copy(source, out);
            }
        });
        receive("buffered", (source, target) -> {
            try (FileChannel out = create(target)) {
                return Transfers.copy(source, out, forced("buffered"));
            }
        });
        receive("transferFrom", (source, target) -> {
            try (FileChannel out = create(target)) {
                return Transfers.copy(source, out, forced("transferFrom"));
            }
        });
        receive("rawTransferFrom", ScaleContenders::rawTransferFrom);
        receive("classic4k", ScaleContenders::classic4kReceive);
    }

    private ScaleContenders() {}

    private static void send(String name, Contender.SendCall call) {
        SEND.put(name, new Contender.Send(name, call));
    }

    private static void loop(String name, Contender.StepFactory steps) {
        SEND.put(name, new Contender.Loop(name, steps));
    }

    private static void receive(String name, Contender.ReceiveCall call) {
        RECEIVE.put(name, new Contender.Receive(name, call));
    }

    private static TransferOptions forcing(String strategy) {
        return TransferOptions.builder().strategy(strategy).build();
    }

    private static TransferOptions forced(String strategy) {
        return FORCED.get(strategy);
    }

    /** Contenders that run only when {@code --contenders} names them. */
    private static final Set<String> ON_REQUEST = Set.of("jdkPath");

    /** The contenders of {@code pair} that a plan runs: all but those {@link #onRequest}. */
    static List<String> planned(Pair pair) {
        List<String> names = names(pair);
        names.removeAll(ON_REQUEST);
        return names;
    }

    /** Whether {@code name} runs only when {@code --contenders} names it. */
    static boolean onRequest(String name) {
        return ON_REQUEST.contains(name);
    }

    /** The names of every contender of {@code pair}, in registry order. */
    static List<String> names(Pair pair) {
        return new ArrayList<>((pair.sendsFile ? SEND : RECEIVE).keySet());
    }

    /** The contender {@code name} of {@code pair}. */
    static Contender get(Pair pair, String name) {
        Contender contender = (pair.sendsFile ? SEND : RECEIVE).get(name);
        if (contender == null) {
            throw new IllegalArgumentException(
                    "contender: " + name + " (expected for " + pair.id + ": " + String.join(", ", names(pair)) + ")");
        }
        return contender;
    }

    private static long classic4kSend(Path source, SocketChannel target) throws IOException {
        // the socket's stream is not closed: that would close the socket before the peer confirms
        return RawLoops.classic4k(source, target.socket().getOutputStream());
    }

    private static long rawTransferFrom(SocketChannel source, Path target) throws IOException {
        try (FileChannel out = create(target)) {
            return RawLoops.transferFrom(source, out);
        }
    }

    private static long classic4kReceive(SocketChannel source, Path target) throws IOException {
        try (OutputStream out = new FileOutputStream(target.toFile())) {
            return RawLoops.classic4k(source.socket().getInputStream(), out);
        }
    }

    private static FileChannel create(Path target) throws IOException {
        return FileChannel.open(
                target, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
