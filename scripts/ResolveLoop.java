import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Times http-server's resolution of a target to an open 4 KiB file, and its close ({@code /a/b/c.txt},
 * or {@code /4k.bin} as the second argument):
 * CPU of the calling thread per resolve, after two rounds of warm-up, no JMH. The resolver is
 * package-private, so it is reached by reflection on the class path:
 *
 * <pre>
 * java -cp zerocopy-api/target/zerocopy-api-0.1.0.jar:zerocopy-core/target/zerocopy-core-0.1.0.jar:\
 *     zerocopy-examples/target/zerocopy-examples.jar scripts/ResolveLoop.java 20000 [/4k.bin]
 * </pre>
 */
public class ResolveLoop {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        String target = args.length > 1 ? args[1] : "/a/b/c.txt";
        Path root = Files.createDirectories(Files.createTempDirectory("resolve-loop").resolve("root/a/b"))
                .getParent()
                .getParent();
        Files.write(root.resolve("a/b/c.txt"), new byte[4096]);
        Files.write(root.resolve("4k.bin"), new byte[4096]);
        Class<?> type = Class.forName("io.zerocopy.examples.http.TargetResolver");
        Constructor<?> create = type.getDeclaredConstructor(Path.class, boolean.class);
        create.setAccessible(true);
        Object resolver = create.newInstance(root, false);
        Method resolve = type.getDeclaredMethod("resolve", String.class);
        resolve.setAccessible(true);
        Field channel = Class.forName("io.zerocopy.examples.http.TargetResolver$Resolution").getDeclaredField("channel");
        channel.setAccessible(true);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu = 0;
        for (int round = 0; round < 3; round++) { // the first two warm up
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                ((FileChannel) channel.get(resolve.invoke(resolver, target))).close();
            }
            cpu = threads.getCurrentThreadCpuTime() - start;
        }
        System.out.printf("%.2f us CPU per resolve of %s (%d resolves)%n", cpu / 1e3 / n, target, n);
    }
}
