package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** docs/examples.md's table of commands names every option that {@code --help} shows. */
class ExamplesDocTest {

    /** The module's directory, where the build runs the tests; the docs are beside it. */
    private static final Path DOC = Path.of("..", "docs", "examples.md");

    @Test
    void commandTable_namesEveryOptionOfEachCommand() throws Exception {
        List<String> lines = Files.readAllLines(DOC, StandardCharsets.UTF_8);
        Map<String, CommandLine> commands = Main.commandLine().getSubcommands();
        assertThat(commands).isNotEmpty();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, CommandLine> command : commands.entrySet()) {
            String row = lines.stream()
                    .filter(line -> line.startsWith("| `" + command.getKey() + " ")
                            || line.startsWith("| `" + command.getKey() + "`"))
                    .findFirst()
                    .orElse(null);
            assertThat(row).as("the row of %s", command.getKey()).isNotNull();
            for (OptionSpec option : command.getValue().getCommandSpec().options()) {
                if (option.usageHelp() || option.versionHelp()) {
                    continue;
                }
                if (!row.contains(option.longestName() + " ") && !row.contains(option.longestName() + "]")) {
                    missing.add(command.getKey() + " " + option.longestName());
                }
            }
        }
        assertThat(missing).as("options missing from %s", DOC).isEmpty();
    }
}
