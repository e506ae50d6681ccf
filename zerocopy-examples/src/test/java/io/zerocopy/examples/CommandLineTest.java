package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --help} and a bad option on every subcommand, and the top-level command alone. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CommandLineTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "traditional-server",
                "traditional-client",
                "transferto-server",
                "transferto-client",
                "file-copy",
                "compare",
                "demo",
                "http-server",
                "relay"
            })
    void subcommand_help_printsUsage(String command) {
        Cli.Run run = Cli.exec(command, "--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).startsWith("Usage: zerocopy-examples " + command).contains("--help");
    }

    /** With its required arguments, so that the unknown option is the only thing wrong. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "traditional-server",
                "traditional-client --file x",
                "transferto-server",
                "transferto-client --file x",
                "file-copy a b",
                "compare",
                "demo",
                "http-server --root x",
                "relay --listen 0 --to localhost:1"
            })
    void subcommand_unknownOption_isAUsageErrorNamingIt(String commandLine) {
        Cli.Run run = Cli.exec((commandLine + " --no-such-option").split(" "));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--no-such-option'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"traditional-server", "transferto-server"})
    void server_portOutOfRange_isAUsageError(String command) {
        Cli.Run run = Cli.exec(command, "--port", "70000");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--port", "70000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"traditional-client", "transferto-client"})
    void client_portNotANumber_isAUsageError(String command) {
        Cli.Run run = Cli.exec(command, "--port", "http", "--file", "x");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--port", "http");
    }

    @Test
    void main_help_listsEverySubcommand() {
        Cli.Run run = Cli.exec("--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .contains(
                        "traditional-server",
                        "traditional-client",
                        "transferto-server",
                        "transferto-client",
                        "file-copy",
                        "compare",
                        "demo",
                        "http-server");
    }

    @Test
    void main_noCommand_isAUsageError() {
        Cli.Run run = Cli.exec();
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Missing command", "Usage: zerocopy-examples");
    }
}
