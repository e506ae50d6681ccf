package io.zerocopy.examples;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the examples' command line in-process with its output captured. */
final class Cli {

    /** What one run printed and returned. */
    record Run(int exit, String out, String err) {}

    private final CommandLine commandLine = Main.commandLine();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    Cli() {
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
    }

    /** The command object of a subcommand, before or while it runs. */
    <T> T command(String name) {
        return commandLine.getSubcommands().get(name).getCommand();
    }

    Run run(String... args) {
        int exit = commandLine.execute(args);
        return new Run(exit, text(out), text(err));
    }

    /** What has been printed so far; safe while another thread still prints. */
    String outSoFar() {
        return text(out);
    }

    private static String text(StringWriter writer) {
        synchronized (writer.getBuffer()) {
            return writer.toString();
        }
    }

    /** Runs the arguments on a new command line and returns the result. */
    static Run exec(String... args) {
        return new Cli().run(args);
    }
}
