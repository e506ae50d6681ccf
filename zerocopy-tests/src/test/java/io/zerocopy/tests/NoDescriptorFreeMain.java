package io.zerocopy.tests;

import io.zerocopy.FileRegion;
import io.zerocopy.OpenDirectory;
import io.zerocopy.OpenFile;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The child JVM of {@code NativePromisesTest}'s full descriptor table, run under a low limit
 * ({@code prlimit --nofile}): with a file and a socket open before the table fills, it sends a
 * region of the file, copies the file by its path, has the JDK open it, opens it as an
 * {@link OpenFile} and beneath its directory, and once the table has room again copies it once
 * more. Prints {@code region|path|jdk|open|beneath|after OUTCOME}, where
 * an outcome is {@code sent N} or the exception's class and reason.
 */
public final class NoDescriptorFreeMain {
    private NoDescriptorFreeMain() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        try (ServerSocketChannel server =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
                SocketChannel channel = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept();
                OpenFile open = OpenFile.open(file);
                OpenDirectory directory = OpenDirectory.open(file.getParent())) {
            Thread reader = new Thread(() -> drain(peer));
            reader.setDaemon(true);
            reader.start();
            FileRegion region = FileRegion.of(open.channel(), 0, open.channel().size());
            Callable<Long> sendRegion = () -> Transfers.copy(region, channel);
            Callable<Long> copyPath = () -> Transfers.copy(file, (WritableByteChannel) channel);
            Callable<Long> jdkOpen = () -> {
                try (FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ)) {
                    return jdk.size();
                }
            };
            Callable<Long> openFile = () -> {
                try (OpenFile again = OpenFile.open(file)) {
                    return again.attributes().size();
                }
            };
            Callable<Long> openBeneath = () -> {
                try (OpenFile again =
                        directory.openBeneath(List.of(file.getFileName().toString()))) {
                    return again.attributes().size();
                }
            };
            // every class the calls load, loaded while a class file can still be opened
            List<Callable<Long>> calls = List.of(sendRegion, copyPath, jdkOpen, openFile, openBeneath);
            for (Callable<Long> call : calls) {
                outcome(call);
            }

            List<FileChannel> filling = fill();
            System.out.println("region " + outcome(sendRegion));
            System.out.println("path " + outcome(copyPath));
            System.out.println("jdk " + outcome(jdkOpen));
            System.out.println("open " + outcome(openFile));
            System.out.println("beneath " + outcome(openBeneath));
            for (FileChannel f : filling) {
                f.close();
            }
            System.out.println("after " + outcome(copyPath));
        }
        System.exit(0);
    }

    /** Opens {@code /dev/null} until no descriptor is free; what it opened. */
    private static List<FileChannel> fill() throws IOException {
        List<FileChannel> opened = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            try {
                opened.add(FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ));
            } catch (IOException full) {
                return opened;
            }
        }
        throw new IOException("no descriptor limit was reached: run under prlimit --nofile");
    }

    private static String outcome(Callable<Long> call) {
        try {
            return "sent " + call.call();
        } catch (Exception e) {
            Throwable reason = e.getCause() != null ? e.getCause() : e;
            return e.getClass().getName() + " (" + reason + ")";
        }
    }

    private static void drain(SocketChannel peer) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        try {
            while (peer.read(buffer.clear()) >= 0) {
                // counted by nothing: the sender's results say what went
            }
        } catch (IOException e) {
            // the sender closed
        }
    }
}
