package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files leads somewhere: the file exists, and an
 * anchor ({@code page.md#heading}) matches one of that page's headings as GitHub spells it. The
 * README and the pages under {@code docs/} (dated records included) also name no ticket of the
 * project's tracker ("issue 35", "#35") and no file outside the repository: a reader outside can
 * follow neither.
 */
class MarkdownLinksTest {
    private static final Path ROOT = Path.of("..");
    /** An inline link or image: {@code [text](target)} or {@code ![alt](target "title")}. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues?\\s+#?\\d+|(?<![\\w&/])#\\d+\\b");
    private static final Pattern OUTSIDE = Pattern.compile("DESIGN\\.md|\\.\\./shared|\\bshared/device|/work/");

    @Test
    void everyRelativeLink_resolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : markdownFiles()) {
            for (String target : links(page)) {
                String problem = check(page, target);
                if (problem != null) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (" + problem + ")");
                }
            }
        }
        assertThat(broken).as("links that lead nowhere").isEmpty();
    }

    @Test
    void readmeAndDocs_nameNoTicketAndNoFileOutside() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : markdownFiles()) {
            Path relative = ROOT.relativize(page);
            if (!relative.equals(Path.of("README.md")) && !relative.startsWith("docs")) {
                continue;
            }
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                for (Pattern p : List.of(ISSUE, OUTSIDE)) {
                    Matcher m = p.matcher(lines.get(i));
                    while (m.find()) {
                        found.add(relative + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        assertThat(found)
                .as("references a reader outside the project cannot follow")
                .isEmpty();
    }

    @Test
    void slug_isGitHubs() {
        assertThat(slug("A native file path (issue 35)")).isEqualTo("a-native-file-path-issue-35");
        assertThat(slug("Two receivers on this host: a client and a proxy"))
                .isEqualTo("two-receivers-on-this-host-a-client-and-a-proxy");
        assertThat(slug("`TCP_NODELAY` at 4-8 KiB, 17:00 UTC")).isEqualTo("tcp_nodelay-at-4-8-kib-1700-utc");
        assertThat(slug("file → socket, 8 MiB")).isEqualTo("file--socket-8-mib");
    }

    /** Why {@code target}, linked from {@code page}, leads nowhere; null when it resolves. */
    private static String check(Path page, String target) throws IOException {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("//")) {
            return null; // http:, https:, mailto: and the like are not this test's to fetch
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!linked.toAbsolutePath()
                .normalize()
                .startsWith(ROOT.toAbsolutePath().normalize())) {
            return "outside the repository";
        }
        if (!Files.exists(linked)) {
            return "no such file";
        }
        if (anchor != null && !anchor.isEmpty()) {
            if (!linked.getFileName().toString().endsWith(".md")) {
                return "an anchor into a file that is not Markdown";
            }
            if (!anchors(linked).contains(anchor)) {
                return "no heading with this anchor in " + ROOT.relativize(linked);
            }
        }
        return null;
    }

    private static List<String> links(Path page) throws IOException {
        List<String> targets = new ArrayList<>();
        for (String line : withoutCode(Files.readAllLines(page, StandardCharsets.UTF_8))) {
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
            while (m.find()) {
                targets.add(m.group(1));
            }
        }
        return targets;
    }

    /** The anchors GitHub gives a page's headings, with "-1", "-2" for repeated ones. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        for (String line : withoutCode(Files.readAllLines(page, StandardCharsets.UTF_8))) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String slug = slug(m.group(1));
                String unique = slug;
                for (int n = 1; !anchors.add(unique); n++) {
                    unique = slug + "-" + n;
                }
            }
        }
        return anchors;
    }

    /** GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    /** The lines outside fenced code blocks, where a {@code ](x)} is code, not a link. */
    private static List<String> withoutCode(List<String> lines) {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                prose.add(line);
            }
        }
        return prose;
    }

    private static List<Path> markdownFiles() throws IOException {
        Set<String> skipped = Set.of("target", ".git", ".mvn", "node_modules");
        try (Stream<Path> files = Files.walk(ROOT)) {
            List<Path> pages = files.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        for (Path part : ROOT.relativize(p)) {
                            if (skipped.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .collect(Collectors.toList());
            assertThat(pages).as("the repository's Markdown files").contains(ROOT.resolve("README.md"));
            return pages;
        }
    }
}
