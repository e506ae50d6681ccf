package io.zerocopy.tests;

import io.zerocopy.OpenFile;
import io.zerocopy.Transfers;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The child JVM of {@link NativePromisesTest}: for every file in the directory given (as the JDK
 * lists it) and for {@code rel.txt} relative to {@code user.dir}, reads it through
 * {@link OpenFile} and sends it with {@code Transfers.copy(Path, socket)}, and prints one line per
 * file: {@code file NAME natively|jdk same|DIFFERENT}. Exits 1 on any failure.
 */
public final class NativePathMain {
    private NativePathMain() {}

    public static void main(String[] args) throws Exception {
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> listed = Files.list(Path.of(args[0]))) {
            listed.sorted().forEach(paths::add);
        }
        paths.add(Path.of("rel.txt"));
        for (Path path : paths) {
            byte[] expected = Files.readAllBytes(path);
            byte[] opened;
            boolean natively;
            try (OpenFile file = OpenFile.open(path)) {
                natively = file.openedNatively();
                ByteBuffer all = ByteBuffer.allocate((int) file.channel().size());
                while (all.hasRemaining() && file.channel().read(all) >= 0) {
                    // read to the end
                }
                opened = Arrays.copyOf(all.array(), all.position());
            }
            LoopbackReceiver.Received sent = sendThroughASocket(path);
            boolean same = Arrays.equals(expected, opened)
                    && sent.bytes() == expected.length
                    && sent.crc32c() == TestFiles.crc32c(expected, 0, expected.length);
            System.out.println("file " + (path.isAbsolute() ? path.getFileName() : path) + " "
                    + (natively ? "natively" : "jdk") + " " + (same ? "same" : "DIFFERENT"));
        }
    }

    private static LoopbackReceiver.Received sendThroughASocket(Path path) throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(0);
                SocketChannel channel = receiver.connectChannel()) {
            Transfers.copy(path, (WritableByteChannel) channel);
            channel.shutdownOutput();
            return receiver.received();
        }
    }
}
