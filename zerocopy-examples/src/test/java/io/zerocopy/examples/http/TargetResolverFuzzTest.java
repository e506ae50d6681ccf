package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target: any request-target resolves to a regular file inside the root, or is refused with
 * 400, 403 or 404, and nothing throws. The tree (made here, in a temp dir) has symbolic links that
 * lead out of the root (relative, absolute, through a directory), links inside it and a link loop.
 * Without follow-symlinks a file that is found has no link anywhere on its path, so its real path is
 * itself and inside the root; with follow-symlinks the path the resolver built is still under the
 * root, with no {@code .} or {@code ..} in it. Runs its committed inputs in every build;
 * {@code docs/fuzzing.md} says how to fuzz it.
 */
class TargetResolverFuzzTest {

    @TempDir
    static Path dir;

    static Path root;
    static TargetResolver strict;
    static TargetResolver following;

    @BeforeAll
    static void tree() throws IOException {
        root = ServerFixture.layout(dir).toRealPath();
        Path outside = dir.resolve("outside").toRealPath();
        Files.writeString(outside.resolve("index.html"), ServerFixture.SECRET);
        Files.createSymbolicLink(root.resolve("docs").resolve("up"), Path.of("..", "..", "outside"));
        Files.createSymbolicLink(root.resolve("abs-secret"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("docs").resolve("again"), Path.of("..", "docs"));
        Files.createSymbolicLink(root.resolve("loop"), Path.of("loop"));
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("nowhere"));
        strict = new TargetResolver(root, false);
        following = new TargetResolver(root, true);
    }

    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({
        "/",
        "%2e",
        "%2E%2e",
        "..",
        "%2f",
        "%5c",
        "%00",
        "%c0%ae",
        "?",
        "#",
        "http://h/",
        "https://h",
        "@",
        "docs/",
        "up/",
        "link-out/",
        "link-in",
        "abs-secret",
        "again/",
        "loop",
        "dangling",
        "secret.txt",
        "index.html",
        "small.txt",
        "%C3%A9.txt",
        "empty/"
    })
    void resolve_anyTarget(FuzzedDataProvider data) throws IOException {
        check(data.consumeRemainingAsString());
    }

    @Test
    void resolve_linkOutOfRoot_refusedUnlessFollowed() throws IOException {
        assertThat(check("/link-out/secret.txt")).isEqualTo(403);
        assertThat(check("/docs/up/index.html")).isEqualTo(403);
        assertThat(check("/abs-secret")).isEqualTo(403);
    }

    /** Asserts the property for both resolvers; returns the strict resolver's status. */
    static int check(String target) throws IOException {
        TargetResolver.Resolution refused = strict.resolve(target);
        try {
            assertThat(refused.status).as("strict, target %s", target).isIn(200, 400, 403, 404);
            if (refused.found()) {
                Path path = refused.path;
                assertThat(path.toRealPath())
                        .as("found without links: %s", path)
                        .isEqualTo(path);
                assertThat(path).startsWithRaw(root);
                assertThat(Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)).isTrue();
                assertThat(read(refused)).isNotEqualTo(ServerFixture.SECRET);
            }
        } finally {
            close(refused);
        }
        TargetResolver.Resolution followed = following.resolve(target);
        try {
            assertThat(followed.status).as("following, target %s", target).isIn(200, 400, 403, 404);
            if (followed.found()) {
                assertThat(followed.path).startsWithRaw(root).isEqualTo(followed.path.normalize());
                assertThat(Files.isRegularFile(followed.path)).isTrue();
            }
            if (refused.found()) {
                assertThat(followed.path)
                        .as("following finds what strict finds")
                        .isEqualTo(refused.path);
            }
        } finally {
            close(followed);
        }
        return refused.status;
    }

    private static String read(TargetResolver.Resolution found) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(256);
        found.channel.read(buffer, 0);
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    private static void close(TargetResolver.Resolution resolution) throws IOException {
        if (resolution.found()) {
            resolution.channel.close();
        }
    }
}
