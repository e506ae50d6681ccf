package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers the package Javadoc draws (package-info.java) hold in the code: every class of the
 * package is in exactly one layer, and none names a class of a layer above its own, other than the
 * public vocabulary. Read from the sources of both parts of the jar, comments and strings left out.
 */
class LayersTest {
    private static final Path PACKAGE_INFO = Path.of("src/main/java/io/zerocopy/package-info.java");
    private static final List<Path> SOURCES =
            List.of(Path.of("src/main/java/io/zerocopy"), Path.of("src/main/java22/io/zerocopy"));
    private static final Pattern CODE_NAME = Pattern.compile("\\{@code (\\w+)}");

    /** Each class's layer, 0 the top, as the Javadoc lists them. */
    private static final Map<String, Integer> layerOf = new LinkedHashMap<>();

    private static Set<String> vocabulary;
    /** Each class's code, both parts of the jar together, without comments and string literals. */
    private static final Map<String, String> code = new TreeMap<>();

    @BeforeAll
    static void read() throws IOException {
        String javadoc = Files.readString(PACKAGE_INFO);
        String[] layers = javadoc.split("<li><b>");
        for (int i = 1; i < layers.length; i++) {
            for (String name : codeNames(layers[i])) {
                layerOf.putIfAbsent(name, i - 1);
            }
        }
        vocabulary = Set.copyOf(codeNames(layers[1].substring(layers[1].indexOf("vocabulary"))));
        for (Path dir : SOURCES) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.sorted().collect(Collectors.toList())) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".java") && !name.equals("package-info.java")) {
                        code.merge(
                                name.substring(0, name.length() - 5), stripped(Files.readString(file)), String::concat);
                    }
                }
            }
        }
    }

    @Test
    void everyClass_isInOneLayer_andTheListNamesNoOther() {
        assertThat(layerOf.keySet())
                .as("the classes package-info.java lists")
                .containsExactlyInAnyOrderElementsOf(code.keySet());
        assertThat(vocabulary)
                .isNotEmpty()
                .allSatisfy(name -> assertThat(layerOf).containsEntry(name, 0));
    }

    @Test
    void noClass_namesOneOfALayerAboveItsOwn_butTheVocabulary() {
        List<String> upward = new ArrayList<>();
        code.forEach((name, text) -> {
            int own = layerOf.getOrDefault(name, 0);
            for (String other : code.keySet()) {
                Integer layer = layerOf.get(other);
                if (layer != null && layer < own && !vocabulary.contains(other) && names(text, other)) {
                    upward.add(name + " (layer " + (own + 1) + ") names " + other + " (layer " + (layer + 1) + ")");
                }
            }
        });
        assertThat(upward).isEmpty();
    }

    @Test
    void theCheck_seesAName_inCodeButNotInCommentsOrStrings() {
        String text = stripped("/** {@link Opener} */ class X { String s = \"Opener\"; // Opener\n Selection s; }");
        assertThat(names(text, "Selection")).isTrue();
        assertThat(names(text, "Opener")).isFalse();
    }

    private static List<String> codeNames(String text) {
        List<String> names = new ArrayList<>();
        Matcher m = CODE_NAME.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static boolean names(String code, String name) {
        return Pattern.compile("\\b" + name + "\\b").matcher(code).find();
    }

    private static String stripped(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "")
                .replaceAll("//[^\\n]*", "")
                .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
    }
}
