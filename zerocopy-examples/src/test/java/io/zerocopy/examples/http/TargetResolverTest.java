package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The traversal matrix on the resolver alone; the engines' tests send the same targets over a socket. */
class TargetResolverTest {

    @TempDir
    static Path dir;

    static Path root;

    @BeforeAll
    static void layout() throws Exception {
        root = ServerFixture.layout(dir);
    }

    /**
     * Target, status without {@code --follow-symlinks}, status with it. Every spelling that climbs
     * out of the root, or could, is a 400; links are 403 unless followed.
     */
    static Stream<Arguments> matrix() {
        return Stream.of(
                Arguments.of("/small.txt", 200, 200),
                Arguments.of("/", 200, 200),
                Arguments.of("/docs", 200, 200),
                Arguments.of("/docs/", 200, 200),
                Arguments.of("//small.txt", 200, 200),
                Arguments.of("/docs//index.html", 200, 200),
                Arguments.of("/%73mall.txt", 200, 200),
                Arguments.of("/%C3%A9.txt", 200, 200),
                Arguments.of("/small.txt?../../outside/secret.txt", 200, 200),
                Arguments.of("http://localhost/small.txt", 200, 200),
                Arguments.of("HTTP://localhost:8080/small.txt", 200, 200),
                Arguments.of("http://localhost", 200, 200),
                Arguments.of("http://localhost?x", 200, 200),
                // as docs/http-server.md says: https too (a request passed on by a proxy that ended TLS)
                Arguments.of("https://localhost/small.txt", 200, 200),
                Arguments.of("/empty/", 404, 404),
                Arguments.of("/small.txt/", 404, 404),
                Arguments.of("/small.txt/x", 404, 404),
                Arguments.of("/nope", 404, 404),
                Arguments.of("/etc/passwd", 404, 404),
                Arguments.of("/proc/self/environ", 404, 404),
                Arguments.of("/%252e%252e/outside/secret.txt", 404, 404),
                // a name longer than NAME_MAX (255 bytes), a path longer than PATH_MAX (4096): ENAMETOOLONG
                Arguments.of("/" + "a".repeat(256), 404, 404),
                Arguments.of("/" + "%C3%A9".repeat(128), 404, 404),
                Arguments.of("/" + "a/".repeat(2100) + "b", 404, 404),
                Arguments.of("/../outside/secret.txt", 400, 400),
                Arguments.of("/docs/../../outside/secret.txt", 400, 400),
                Arguments.of("/%2e%2e/outside/secret.txt", 400, 400),
                Arguments.of("/%2E%2E/outside/secret.txt", 400, 400),
                Arguments.of("/.%2e/outside/secret.txt", 400, 400),
                Arguments.of("/%2e./outside/secret.txt", 400, 400),
                Arguments.of("/./small.txt", 400, 400),
                Arguments.of("/docs/%2e/index.html", 400, 400),
                Arguments.of("/small.txt/..", 400, 400),
                Arguments.of("/..%2foutside%2fsecret.txt", 400, 400),
                Arguments.of("/docs%2f..%2f..%2foutside%2fsecret.txt", 400, 400),
                Arguments.of("/%2f..%2f..%2foutside/secret.txt", 400, 400),
                Arguments.of("/%2Fetc%2Fpasswd", 400, 400),
                Arguments.of("/..\\outside\\secret.txt", 400, 400),
                Arguments.of("/\\..\\outside", 400, 400),
                Arguments.of("/%5c..%5coutside%5csecret.txt", 400, 400),
                Arguments.of("/small.txt%00", 400, 400),
                Arguments.of("/small.txt%00.html", 400, 400),
                Arguments.of("/%00", 400, 400),
                Arguments.of("/%0a", 400, 400),
                Arguments.of("/%c0%ae%c0%ae/outside/secret.txt", 400, 400),
                Arguments.of("/%e0%80%ae%e0%80%ae/outside/secret.txt", 400, 400),
                Arguments.of("/%c0%af", 400, 400),
                Arguments.of("/%ed%a0%80", 400, 400),
                Arguments.of("/%ff", 400, 400),
                Arguments.of("/%", 400, 400),
                Arguments.of("/%2", 400, 400),
                Arguments.of("/%zz", 400, 400),
                Arguments.of("/%%32%65", 400, 400),
                Arguments.of("/small.txt#x", 400, 400),
                Arguments.of("http://localhost/../outside/secret.txt", 400, 400),
                Arguments.of("http://user@localhost/small.txt", 400, 400),
                Arguments.of("http:///small.txt", 400, 400),
                Arguments.of("file:///etc/passwd", 400, 400),
                Arguments.of("ftp://localhost/small.txt", 400, 400),
                Arguments.of("*", 400, 400),
                Arguments.of("small.txt", 400, 400),
                Arguments.of("/link-in", 403, 200),
                Arguments.of("/link-out/secret.txt", 403, 200),
                Arguments.of("/link-out", 403, 404),
                Arguments.of("/link-out/", 403, 404));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("matrix")
    void resolve_withoutFollowingLinks(String target, int status, int statusFollowing) throws Exception {
        check(new TargetResolver(root, false), target, status);
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("matrix")
    void resolve_followingLinks(String target, int status, int statusFollowing) throws Exception {
        check(new TargetResolver(root, true), target, statusFollowing);
    }

    private static void check(TargetResolver resolver, String target, int status) throws Exception {
        TargetResolver.Resolution r = resolver.resolve(target);
        try {
            assertThat(r.status).as(r.toString()).isEqualTo(status);
            if (r.found()) {
                byte[] content = new byte[(int) r.channel.size()];
                r.channel.read(java.nio.ByteBuffer.wrap(content));
                if (!target.contains("link-out")) {
                    assertThat(new String(content, StandardCharsets.UTF_8)).isNotEqualTo(ServerFixture.SECRET);
                    assertThat(r.path.normalize().startsWith(resolver.root())).isTrue();
                }
            } else {
                assertThat(r.channel).isNull();
            }
        } finally {
            if (r.found()) {
                r.channel.close();
            }
        }
    }

    /**
     * Seeded random segments over the characters that spell traversal: a decoded segment is never
     * {@code .} or {@code ..} and never holds a separator, NUL or control character; a segment
     * without escapes decodes to itself.
     */
    @TestFactory
    Stream<DynamicTest> decode_randomSegments_neverForbidden() {
        long seed = HostileRequests.SEED;
        System.out.println("TargetResolverTest seed: " + seed + " (-Dhttp.seed to replay)");
        Random random = new Random(seed);
        String alphabet = "..%%%2eE5cCfF0aA/\\";
        return IntStream.range(0, 500).mapToObj(i -> {
            StringBuilder b = new StringBuilder();
            for (int n = 1 + random.nextInt(9); n > 0; n--) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String raw = b.toString().replace("/", "");
            return DynamicTest.dynamicTest("segment '" + raw + "'", () -> {
                String segment = TargetResolver.decode(raw);
                if (segment == null) {
                    assertThat(raw)
                            .as("only a segment with an escape, a dot segment or a backslash is refused")
                            .containsAnyOf("%", ".", "\\");
                    return;
                }
                assertThat(segment).doesNotContain("/", "\\", "\0").isNotIn(".", "..");
                if (!raw.contains("%")) {
                    assertThat(segment).isEqualTo(raw);
                }
            });
        });
    }
}
