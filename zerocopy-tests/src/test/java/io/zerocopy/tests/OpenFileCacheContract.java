package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerocopy.FileRegion;
import io.zerocopy.OpenDirectory;
import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import io.zerocopy.SymbolicLinkException;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link OpenFileCache}'s promises, run once per way of opening: with the JDK's
 * {@code FileChannel.open} ({@link OpenFileCacheTest}) and natively ({@link NativeOpenFileCacheTest},
 * Java 22+ with native access). Many threads at once: {@link OpenFileCacheManyThreads}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class OpenFileCacheContract extends OpenFileCacheManyThreads {
    @Test
    void open_secondIsAHitOnTheSameDescriptor() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "alpha");
        try (OpenFileCache cache = OpenFileCache.create(8, LONG)) {
            try (OpenFile first = cache.open(a);
                    OpenFile second = cache.open(a)) {
                assertThat(second.channel()).isSameAs(first.channel());
                assertThat(second.openedNatively()).isEqualTo(natively());
                assertThat(read(second)).isEqualTo("alpha");
                assertThat(cache.stats().leases()).isEqualTo(2);
            }
            OpenFileCache.Stats stats = cache.stats();
            assertThat(stats.hits()).isEqualTo(1);
            assertThat(stats.misses()).isEqualTo(1);
            assertThat(stats.openFiles()).isEqualTo(1);
            assertThat(stats.leases()).isZero();
            try (OpenFile again = cache.open(a)) {
                assertThat(read(again)).isEqualTo("alpha"); // closing a lease left the channel open
            }
        }
    }

    @Test
    void replacedByRename_oldWholeWithinValidity_newAfterALook() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "old content");
        try (OpenFileCache lasting = OpenFileCache.create(8, LONG);
                OpenFileCache looking = OpenFileCache.create(8, Duration.ZERO)) {
            lasting.open(a).close();
            looking.open(a).close();
            Path next = Files.writeString(dir.resolve("a.tmp"), "new content, longer");
            Files.move(next, a, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (OpenFile stale = lasting.open(a)) {
                assertThat(read(stale)).isEqualTo("old content"); // the old inode, whole
                assertThat(stale.attributes().size()).isEqualTo(11);
            }
            try (OpenFile fresh = looking.open(a)) {
                assertThat(read(fresh)).isEqualTo("new content, longer");
                assertThat(fresh.attributes().size()).isEqualTo(19);
            }
            assertThat(looking.stats().reopens()).isEqualTo(1);
            assertThat(looking.stats().openFiles()).isEqualTo(1); // the old one closed
        }
    }

    @Test
    void unchangedAfterALook_keepsTheDescriptor() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "same");
        try (OpenFileCache cache = OpenFileCache.create(8, Duration.ZERO)) {
            FileChannel channel;
            try (OpenFile first = cache.open(a)) {
                channel = first.channel();
            }
            try (OpenFile second = cache.open(a)) {
                assertThat(second.channel()).isSameAs(channel);
            }
            assertThat(cache.stats().hits()).isEqualTo(1);
            assertThat(cache.stats().reopens()).isZero();
        }
    }

    @Test
    void resizedInPlace_openedAfreshAfterALook() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "twelve bytes");
        try (OpenFileCache cache = OpenFileCache.create(8, Duration.ZERO)) {
            cache.open(a).close();
            Files.writeString(a, "six b!", StandardOpenOption.TRUNCATE_EXISTING);
            try (OpenFile file = cache.open(a)) {
                assertThat(file.attributes().size()).isEqualTo(6);
                assertThat(read(file)).isEqualTo("six b!");
            }
            assertThat(cache.stats().reopens()).isEqualTo(1);
        }
    }

    @Test
    void removed_failsAsAnOpenWouldAfterALook_servedUntilThen() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "doomed");
        try (OpenFileCache lasting = OpenFileCache.create(8, LONG);
                OpenFileCache looking = OpenFileCache.create(8, Duration.ZERO)) {
            lasting.open(a).close();
            looking.open(a).close();
            Files.delete(a);
            try (OpenFile stale = lasting.open(a)) {
                assertThat(read(stale)).isEqualTo("doomed");
            }
            assertThatThrownBy(() -> looking.open(a)).isInstanceOf(NoSuchFileException.class);
            assertThat(looking.stats().openFiles()).isZero();
            assertThatThrownBy(() -> looking.open(a)).isInstanceOf(NoSuchFileException.class);
        }
    }

    @Test
    void shrinkWhileSent_isATruncation() throws Exception {
        Path a = Files.write(dir.resolve("a.bin"), new byte[1 << 20]);
        try (OpenFileCache cache = OpenFileCache.create(8, LONG);
                OpenFile file = cache.open(a)) {
            long size = file.attributes().size();
            WritableByteChannel cutting = new WritableByteChannel() {
                private boolean cut;

                @Override
                public int write(ByteBuffer src) throws IOException {
                    if (!cut) {
                        cut = true;
                        try (FileChannel writer = FileChannel.open(a, StandardOpenOption.WRITE)) {
                            writer.truncate(1000); // the file shrinks under the transfer
                        }
                    }
                    int n = Math.min(src.remaining(), 8192);
                    src.position(src.position() + n);
                    return n;
                }

                @Override
                public boolean isOpen() {
                    return true;
                }

                @Override
                public void close() {}
            };
            assertThatThrownBy(() -> Transfers.copy(FileRegion.of(file.channel(), 0, size), cutting))
                    .isInstanceOf(TruncatedSourceException.class);
        }
    }

    /**
     * A file written shorter between its open (or the cache's last look) and the send: the size the
     * caller was handed no longer holds, which is the truncation the docs promise, not a caller's
     * mistake (an {@code IllegalArgumentException}); nothing reaches the target. Uncached and
     * cached, a slice and a region with a prefix.
     */
    @Test
    void shrunkBeforeSent_isATruncation() throws Exception {
        // a small file, and one that goes into a file through a JDK channel over the native open
        for (int length : new int[] {10_000, 200_000}) {
            Path a = Files.write(dir.resolve("shrinks-first-" + length), new byte[length]);
            try (OpenFileCache cache = OpenFileCache.create(8, LONG);
                    OpenFile uncached = OpenFile.open(a);
                    OpenFile cached = cache.open(a);
                    FileChannel fileTarget = FileChannel.open(
                            dir.resolve("target-" + length), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                try (FileChannel writer = FileChannel.open(a, StandardOpenOption.WRITE)) {
                    writer.truncate(length / 3);
                }
                for (OpenFile file : List.of(uncached, cached)) {
                    long size = file.attributes().size();
                    ByteArrayOutputStream reached = new ByteArrayOutputStream();
                    for (WritableByteChannel target : List.of(Channels.newChannel(reached), fileTarget)) {
                        assertThatThrownBy(() -> Transfers.copy(file.channel(), 0, size, target))
                                .as("%d bytes into %s", length, target)
                                .isInstanceOfSatisfying(TruncatedSourceException.class, e -> {
                                    assertThat(e.expectedSize()).isEqualTo(length);
                                    assertThat(e.actualSize()).isEqualTo(length / 3);
                                    assertThat(e.bytesTransferred()).isZero();
                                });
                        assertThatThrownBy(() -> Transfers.copy(
                                        FileRegion.of(file.channel(), 0, size)
                                                .withPrefix(ByteBuffer.wrap(new byte[] {'h'})),
                                        target))
                                .isInstanceOf(TruncatedSourceException.class);
                    }
                    assertThat(reached.size()).isZero();
                    assertThat(fileTarget.size()).isZero();
                }
            }
        }
    }

    @Test
    void directory_handedOutUncached_fifo_refused() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("sub"));
        Path fifo = TestFiles.fifo(dir.resolve("fifo"));
        try (OpenFileCache cache = OpenFileCache.create(8, LONG)) {
            for (int i = 0; i < 2; i++) {
                try (OpenFile d = cache.open(sub)) {
                    assertThat(d.attributes().isDirectory()).isTrue();
                }
                assertThatThrownBy(() -> cache.open(fifo))
                        .isInstanceOf(FileSystemException.class)
                        .hasMessageContaining("not a regular file");
            }
            assertThat(cache.stats().openFiles()).isZero();
            assertThat(cache.stats().misses()).isZero();
        }
    }

    @Test
    void beneath_linkRefused_evenWhereACachedFileWas() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Path outside = Files.writeString(dir.resolve("outside.txt"), "outside: never read");
        Files.writeString(Files.createDirectories(root.resolve("d")).resolve("f.txt"), "inside");
        Files.createSymbolicLink(root.resolve("link.txt"), outside);
        try (OpenDirectory held = OpenDirectory.open(root);
                OpenFileCache cache = OpenFileCache.create(8, Duration.ZERO)) {
            try (OpenFile f = cache.openBeneath(held, List.of("d", "f.txt"))) {
                assertThat(read(f)).isEqualTo("inside");
            }
            assertThatThrownBy(() -> cache.openBeneath(held, List.of("link.txt")))
                    .isInstanceOf(SymbolicLinkException.class);
            // the cached file replaced by a link: the look opens beneath again, and refuses it
            Files.delete(root.resolve("d/f.txt"));
            Files.createSymbolicLink(root.resolve("d/f.txt"), outside);
            assertThatThrownBy(() -> cache.openBeneath(held, List.of("d", "f.txt")))
                    .isInstanceOf(SymbolicLinkException.class);
            assertThat(cache.stats().openFiles()).isZero();
            assertThatThrownBy(() -> cache.open(root.resolve("link.txt"), LinkOption.NOFOLLOW_LINKS))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void beneathAClosedDirectory_nothingServed() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("f.txt"), "inside");
        try (OpenFileCache cache = OpenFileCache.create(8, LONG)) {
            OpenDirectory held = OpenDirectory.open(root);
            cache.openBeneath(held, List.of("f.txt")).close();
            held.close();
            assertThatThrownBy(() -> cache.openBeneath(held, List.of("f.txt"))).isInstanceOf(IOException.class);
            assertThat(cache.stats().openFiles()).isZero();
        }
    }

    @Test
    void bound_neverMoreThanItPlusTheLeases() throws Exception {
        int bound = 4;
        try (OpenFileCache cache = OpenFileCache.create(bound, LONG)) {
            for (int i = 0; i < 40; i++) {
                try (OpenFile file = cache.open(Files.writeString(dir.resolve(i + ".txt"), "file " + i))) {
                    assertThat(read(file)).isEqualTo("file " + i);
                    assertThat(cache.stats().openFiles()).isLessThanOrEqualTo(bound + 1);
                }
                assertThat(cache.stats().openFiles()).isLessThanOrEqualTo(bound);
                if (ProcSelf.available()) {
                    assertThat(descriptorsOn(dir)).isLessThanOrEqualTo(bound);
                }
            }
            assertThat(cache.stats().evictions()).isGreaterThanOrEqualTo(36);
        }
    }

    /**
     * Descriptors this JVM holds open on files beneath {@code directory}: what the kernel says the
     * cache holds, whatever other threads of the JVM open meanwhile.
     */
    private static long descriptorsOn(Path directory) throws IOException {
        String prefix = directory.toRealPath() + "/";
        return ProcSelf.descriptorTargets().stream()
                .filter(t -> t.startsWith(prefix))
                .count();
    }

    @Test
    void evictedWhileHeld_staysReadableUntilReleased() throws Exception {
        int bound = 2;
        try (OpenFileCache cache = OpenFileCache.create(bound, LONG)) {
            OpenFile held = cache.open(Files.writeString(dir.resolve("held.txt"), "held"));
            for (int i = 0; i < 10; i++) {
                cache.open(Files.writeString(dir.resolve(i + ".txt"), "file " + i))
                        .close();
            }
            OpenFileCache.Stats stats = cache.stats();
            assertThat(stats.evictions()).isGreaterThanOrEqualTo(9);
            assertThat(stats.openFiles()).isLessThanOrEqualTo(bound + 1);
            assertThat(held.channel().isOpen()).isTrue();
            assertThat(read(held)).isEqualTo("held");
            held.close();
            held.close(); // a second close gives nothing back twice
            assertThat(cache.stats().openFiles()).isLessThanOrEqualTo(bound);
            assertThat(cache.stats().leases()).isZero();
        }
    }

    @Test
    void leasesDroppedUnclosed_countsMendedOnceUnreachable_aHeldChannelStillReads() throws Exception {
        int bound = 1;
        try (OpenFileCache cache = OpenFileCache.create(bound, LONG)) {
            dropTwoLeases(cache, Files.writeString(dir.resolve("dropped.txt"), "dropped"));
            FileChannel kept = cache.open(Files.writeString(dir.resolve("kept.txt"), "kept"))
                    .channel(); // lease dropped too
            cache.open(Files.writeString(dir.resolve("next.txt"), "next")).close(); // evicts both
            assertThat(cache.stats().leases()).isEqualTo(3);
            assertThat(cache.stats().openFiles()).isEqualTo(bound + 2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((cache.stats().openFiles() > bound + 1 || ProcSelf.available() && descriptorsOn(dir) > bound + 1)
                    && System.nanoTime() < deadline) {
                System.gc();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // polling interval, not synchronisation
            }
            OpenFileCache.Stats stats = cache.stats();
            assertThat(stats.openFiles()).as(stats.toString()).isEqualTo(bound + 1); // next.txt, and kept.txt
            assertThat(stats.leases()).as(stats.toString()).isEqualTo(1);
            if (ProcSelf.available()) {
                assertThat(descriptorsOn(dir)).isEqualTo(bound + 1); // the dropped file's descriptor closed
            }
            ByteBuffer read = ByteBuffer.allocate(4);
            assertThat(kept.read(read, 0)).isEqualTo(4); // its lease dropped, its channel still in use
            try (OpenFile again = cache.open(dir.resolve("dropped.txt"))) {
                assertThat(read(again)).isEqualTo("dropped");
            }
        }
    }

    /** Two leases on {@code file}, neither closed, reachable from nothing once this returns. */
    private static void dropTwoLeases(OpenFileCache cache, Path file) throws IOException {
        assertThat(read(cache.open(file))).isEqualTo("dropped");
        assertThat(cache.open(file).channel().isOpen()).isTrue();
    }

    @Test
    void channelClosedByAHolder_doesNotPoisonTheCache() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "alpha");
        try (OpenFileCache cache = OpenFileCache.create(8, LONG)) {
            OpenFile careless = cache.open(a);
            careless.channel().close();
            try (OpenFile next = cache.open(a)) {
                assertThat(next.channel().isOpen()).isTrue();
                assertThat(read(next)).isEqualTo("alpha");
            }
            careless.close();
            assertThat(cache.stats().reopens()).isEqualTo(1);
            assertThat(cache.stats().openFiles()).isEqualTo(1);
        }
    }

    @Test
    void close_closesIdleNow_heldOnRelease_thenUncached() throws Exception {
        Path a = Files.writeString(dir.resolve("a.txt"), "alpha");
        Path b = Files.writeString(dir.resolve("b.txt"), "beta");
        OpenFileCache cache = OpenFileCache.create(8, LONG);
        cache.open(b).close();
        OpenFile held = cache.open(a);
        cache.close();
        assertThat(cache.stats().openFiles()).isEqualTo(1);
        assertThat(read(held)).isEqualTo("alpha");
        held.close();
        assertThat(cache.stats().openFiles()).isZero();
        try (OpenFile after = cache.open(a)) {
            assertThat(read(after)).isEqualTo("alpha");
        }
        assertThat(cache.stats().openFiles()).isZero();
        cache.close();
    }

    @Test
    void create_argumentsChecked() {
        assertThatThrownBy(() -> OpenFileCache.create(0, LONG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxOpenFiles: 0 (expected: >= 1)");
        assertThatThrownBy(() -> OpenFileCache.create(1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("validity: PT-0.001S (expected: >= 0)");
        assertThatThrownBy(() -> OpenFileCache.create(1, null)).isInstanceOf(NullPointerException.class);
    }
}
