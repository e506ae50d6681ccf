package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Transfers.copy(Path, Path, NOFOLLOW_LINKS)} copies a link as a link, as
 * {@code Files.copy} does, and never what a link names: not even when a writer swaps the source
 * between a file and a link while the copy runs, where a look and then an open by name would read
 * the link's target. Nor does {@code COPY_ATTRIBUTES} set anything through a link a writer renames
 * over the target.
 */
class PathCopyLinksTest {
    private static final String FILE = "the source file";
    private static final String SECRET = "what the link names";

    @TempDir
    Path dir;

    @Test
    void nofollowLinks_aLinkIsCopiedAsTheLink() throws IOException {
        Path secret = Files.writeString(dir.resolve("secret"), SECRET);
        Path link = Files.createSymbolicLink(dir.resolve("link"), secret);

        assertThat(Transfers.copy(link, dir.resolve("copy"), LinkOption.NOFOLLOW_LINKS))
                .isZero();
        assertThat(Files.isSymbolicLink(dir.resolve("copy"))).isTrue();
        assertThat(Files.readSymbolicLink(dir.resolve("copy"))).isEqualTo(secret);

        assertThat(Transfers.copy(link, dir.resolve("followed"))).isEqualTo(SECRET.length());
        assertThat(Files.isSymbolicLink(dir.resolve("followed"))).isFalse();
        assertThat(Files.readString(dir.resolve("followed"))).isEqualTo(SECRET);
    }

    @Test
    void nofollowLinks_anExistingTarget_asFilesCopy() throws IOException {
        Path secret = Files.writeString(dir.resolve("secret"), SECRET);
        Path link = Files.createSymbolicLink(dir.resolve("link"), secret);
        Path target = Files.writeString(dir.resolve("target"), FILE);

        assertThatThrownBy(() -> Transfers.copy(link, target, LinkOption.NOFOLLOW_LINKS))
                .isExactlyInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(target)).isEqualTo(FILE);

        Transfers.copy(link, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.readSymbolicLink(target)).isEqualTo(secret);
        assertThat(Transfers.copy(link, link, LinkOption.NOFOLLOW_LINKS)).isZero();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(secret);
    }

    /**
     * With {@code COPY_ATTRIBUTES} a copied link gets the source link's owner and group, as
     * {@code Files.copy} gives them ({@code lchown}); without it, the process's. Only root may give
     * a link away, so only root can tell the two apart.
     */
    @Test
    void nofollowLinks_copyAttributes_theLinksOwner_asFilesCopy() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root may give a link away");
        Path secret = Files.writeString(dir.resolve("secret"), SECRET);
        Path link = Files.createSymbolicLink(dir.resolve("link"), secret);
        PosixFileAttributeView linkView =
                Files.getFileAttributeView(link, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        linkView.setOwner(users.lookupPrincipalByName("nobody"));
        linkView.setGroup(users.lookupPrincipalByGroupName("nogroup"));

        Files.copy(link, dir.resolve("jdk"), LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
        Transfers.copy(link, dir.resolve("ours"), LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
        Transfers.copy(link, dir.resolve("plain"), LinkOption.NOFOLLOW_LINKS);

        PosixFileAttributes jdk = linkAttributes(dir.resolve("jdk"));
        PosixFileAttributes ours = linkAttributes(dir.resolve("ours"));
        assertThat(jdk.owner().getName()).isEqualTo("nobody");
        assertThat(ours.owner()).isEqualTo(jdk.owner());
        assertThat(ours.group()).isEqualTo(jdk.group());
        assertThat(linkAttributes(dir.resolve("plain")).owner().getName()).isEqualTo("root");
        assertThat(Files.readSymbolicLink(dir.resolve("ours"))).isEqualTo(secret);
        // what the link names is left alone
        assertThat(Files.getOwner(secret).getName()).isEqualTo("root");
    }

    private static PosixFileAttributes linkAttributes(Path link) throws IOException {
        return Files.readAttributes(link, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    @Test
    void newFile_hasTheSourcesMode() throws IOException {
        Path source = Files.writeString(dir.resolve("source"), FILE);
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rw-------"));

        Transfers.copy(source, dir.resolve("copy"), LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("copy"))))
                .isEqualTo("rw-------");
        assertThat(Files.readString(dir.resolve("copy"))).isEqualTo(FILE);
    }

    /**
     * The attributes failing, after the bytes, fail the copy and delete what stands at the target's
     * name, as a failure while the bytes move does and as {@code Files.copy} does: here a link
     * renamed over the new file once its bytes are in. Before the fix the link stayed.
     */
    @Test
    void copyAttributes_failing_deletesTheTarget() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim"), SECRET);
        Path source = Files.writeString(dir.resolve("source"), FILE);
        Path target = dir.resolve("target");
        CopyOption[] options = {StandardCopyOption.COPY_ATTRIBUTES};

        assertThatThrownBy(() -> PathCopy.copy(source, target, options, (in, out) -> {
                    long n = in.transferTo(0, in.size(), out);
                    Files.move(
                            Files.createSymbolicLink(dir.resolve("link"), victim),
                            target,
                            StandardCopyOption.REPLACE_EXISTING);
                    return n;
                }))
                .isInstanceOf(FileSystemException.class);
        assertThat(target).doesNotExist();
        assertThat(Files.isSymbolicLink(target)).isFalse();
        assertThat(Files.readString(victim)).isEqualTo(SECRET);
    }

    /**
     * A writer renames a link to a victim file over the target whenever the target is a file: the
     * copy's own, once made. {@code COPY_ATTRIBUTES} must give its mode and times to the file the
     * copy made, or fail, and never to what a link put in its place names; nor its owner. Before the fix it set them
     * by name after the bytes, following the link, within a few copies.
     */
    @Test
    void copyAttributes_racingLinkOverTheTarget_neverTouchesWhatTheLinkNames() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), SECRET);
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-------"));
        FileTime victimTime = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
        Files.setLastModifiedTime(victim, victimTime);
        Path source = Files.writeString(dir.resolve("source"), FILE);
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setLastModifiedTime(source, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        Object victimOwner = Files.getAttribute(victim, "unix:uid");
        if ("root".equals(System.getProperty("user.name"))) {
            Files.setAttribute(source, "unix:uid", 1234); // an owner to give, where the process may
        }
        Path target = dir.resolve("target");
        Path link = dir.resolve("target.link");
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> linkOver(target, link, victim, done));
        int copied = 0;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (int i = 0; i < 20_000 && System.nanoTime() < deadline; i++) {
                Files.deleteIfExists(target);
                try {
                    Transfers.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                    copied++;
                } catch (IOException e) {
                    // the link came first (the target exists), or over the copy's file before its attributes
                }
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)))
                        .as("copy %d", i)
                        .isEqualTo("rw-------");
                assertThat(Files.getLastModifiedTime(victim)).as("copy %d", i).isEqualTo(victimTime);
                assertThat(Files.getAttribute(victim, "unix:uid"))
                        .as("copy %d", i)
                        .isEqualTo(victimOwner);
            }
        } finally {
            done.set(true);
        }
        int swaps = writer.get(30, TimeUnit.SECONDS);
        assertThat(swaps).as("links renamed over the copy's file").isPositive();
        assertThat(copied).as("copies that were not raced (%d swaps)", swaps).isPositive();
        assertThat(Files.readString(victim)).isEqualTo(SECRET);
    }

    /** Renames a link to {@code victim} over {@code target} whenever that is a file; returns how often. */
    private static int linkOver(Path target, Path link, Path victim, AtomicBoolean done) {
        int swaps = 0;
        try {
            while (!done.get() && swaps < 5_000_000) {
                if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(link, victim);
                    Files.move(link, target, StandardCopyOption.ATOMIC_MOVE); // whether the file is there still or not
                    swaps++;
                } else {
                    Thread.onSpinWait();
                }
            }
            return swaps;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A writer renames a link to a secret and the source file over each other without rest. Every
     * copy with {@code NOFOLLOW_LINKS} makes the file's bytes, the link, or fails; none makes the
     * secret's bytes. Before the fix, the look saw a file and the open followed the link swapped in
     * since, within a few thousand copies.
     */
    @Test
    void nofollowLinks_racingLinkSwaps_neverWhatTheLinkNames() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), SECRET);
        Path source = Files.writeString(dir.resolve("source"), FILE);
        Path aside = dir.resolve("source.aside");
        Path link = dir.resolve("source.link");
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Integer> writer =
                CompletableFuture.supplyAsync(() -> OpenBeneathTest.swap(source, aside, link, secret, done));
        int files = 0;
        int links = 0;
        int failed = 0;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (int i = 0; i < 20_000 && System.nanoTime() < deadline; i++) {
                Path copy = dir.resolve("copy" + i);
                try {
                    Transfers.copy(source, copy, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException | NotLinkException e) {
                    failed++; // between two renames, or a link at the look and a file at the read of it
                    continue;
                } catch (FileSystemException e) {
                    assertThat(e.getReason()).as("copy %d: %s", i, e).isEqualTo(PathCopy.REPLACED_BY_LINK);
                    assertThat(e.getFile()).isEqualTo(source.toString());
                    assertThat(copy).doesNotExist();
                    failed++;
                    continue;
                }
                if (Files.isSymbolicLink(copy)) {
                    assertThat(Files.readSymbolicLink(copy)).as("copy %d", i).isEqualTo(secret);
                    links++;
                } else {
                    assertThat(new String(Files.readAllBytes(copy), StandardCharsets.UTF_8))
                            .as("copy %d", i)
                            .isEqualTo(FILE);
                    files++;
                }
                Files.delete(copy);
            }
        } finally {
            done.set(true);
        }
        int swaps = writer.get(30, TimeUnit.SECONDS);
        assertThat(files)
                .as("copies of the file (%d links, %d failed, %d swaps)", links, failed, swaps)
                .isPositive();
        assertThat(links + failed)
                .as("copies that met the link (%d swaps)", swaps)
                .isPositive();
    }
}
