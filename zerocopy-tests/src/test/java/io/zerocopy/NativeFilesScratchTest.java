package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory of the native calls: threads of either kind borrow it in turn rather than each
 * allocating some (and a cleaner) per file, and no thread keeps any of its own, which would keep
 * the library's class loader as long as the thread lives; those holding it at once each get their own.
 * In package {@code io.zerocopy} to reach the packaged jar's Java 22 part (by reflection, since
 * this module compiles against the Java 17 classes); this module's native-access run.
 */
class NativeFilesScratchTest {
    @TempDir
    Path dir;

    private ThreadFactory virtual;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(NativeFiles.unavailable() == null, () -> "no native file path here: " + NativeFiles.unavailable());
        virtual = (ThreadFactory) Class.forName("java.lang.Thread$Builder")
                .getMethod("factory")
                .invoke(Thread.class.getMethod("ofVirtual").invoke(null));
    }

    @Test
    void threadsOfEitherKindOneAfterAnother_borrowTheSameMemory_andFilesOpenAndReadOnEach() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[] {1, 2, 3});
        Object lent = scratchTakenAndGivenBack();
        assertThat(onVirtualThread(NativeFilesScratchTest::scratchTakenAndGivenBack))
                .as("a virtual thread borrows what a platform thread gave back")
                .isSameAs(lent);
        assertThat(onPlatformThread(NativeFilesScratchTest::scratchTakenAndGivenBack))
                .as("so does a new platform thread: none keeps memory of its own")
                .isSameAs(lent);
        for (int i = 0; i < 20; i++) {
            long size = onVirtualThread(() -> {
                try (NativeFile opened = NativeFiles.open(file, true)) {
                    return opened.read(java.nio.ByteBuffer.allocate(8), 0) + opened.size();
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(size).isEqualTo(6);
        }
        Object again = onVirtualThread(NativeFilesScratchTest::scratchTakenAndGivenBack);
        assertThat(again)
                .as("the same memory, borrowed again by a new virtual thread")
                .isSameAs(lent);
    }

    @Test
    void virtualThreadsHoldingMemoryAtOnce_eachBorrowTheirOwn_andMoreThanTheSlotsComeBackWithoutFailing()
            throws Exception {
        List<Object> held = onVirtualThread(() -> {
            List<Object> taken = new ArrayList<>();
            for (int i = 0; i < 100; i++) { // more than the slots: the rest of what comes back is the GC's
                taken.add(scratch());
            }
            return taken;
        });
        assertThat(held).doesNotHaveDuplicates();
        onVirtualThread(() -> {
            held.forEach(NativeFilesScratchTest::giveBack);
            return null;
        });
        Object next = onVirtualThread(NativeFilesScratchTest::scratchTakenAndGivenBack);
        assertThat(held).as("one that came back is lent again").contains(next);
    }

    /** {@code Scratch.lend()}, closed at once: the memory this thread's calls would use. */
    private static Object scratchTakenAndGivenBack() {
        Object s = scratch();
        giveBack(s);
        return s;
    }

    /** {@code Scratch.lend()}: memory lent to this thread until {@link #giveBack}. */
    private static Object scratch() {
        try {
            Method scratch = Class.forName("io.zerocopy.Scratch").getDeclaredMethod("lend");
            scratch.setAccessible(true);
            return scratch.invoke(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void giveBack(Object scratch) {
        try {
            ((AutoCloseable) scratch).close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private <T> T onVirtualThread(Supplier<T> task) throws Exception {
        return on(virtual, task);
    }

    private static <T> T onPlatformThread(Supplier<T> task) throws Exception {
        return on(Thread::new, task);
    }

    private static <T> T on(ThreadFactory threads, Supplier<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        threads.newThread(() -> {
                    try {
                        result.complete(task.get());
                    } catch (RuntimeException | Error e) {
                        result.completeExceptionally(e);
                    }
                })
                .start();
        return result.get(30, TimeUnit.SECONDS);
    }
}
