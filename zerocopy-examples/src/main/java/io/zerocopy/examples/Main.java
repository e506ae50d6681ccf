package io.zerocopy.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The examples' executable jar: one command with a subcommand per program.
 *
 * <p>Usage: {@code java -jar zerocopy-examples.jar COMMAND [OPTIONS]}; {@code --help} on any of
 * them. Exit codes: 0 done, 1 failed (a port in use, a refused connection, an I/O error), 2 bad
 * command line (unknown or invalid option, missing or unreadable input file, a strategy or
 * {@code zerocopy.*} system property the library refuses). The servers and the relay run until
 * stopped: Ctrl-C (SIGINT) and SIGTERM end them with the JVM's codes for those signals, 130 and
 * 143, the servers after their last line.
 */
@Command(
        name = "zerocopy-examples",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {"The classic zero-copy experiment and other examples, built on the zerocopy library."},
        footer = {"", "Run COMMAND --help for the options of each command."})
public final class Main implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line with every subcommand, and its error handling: a bad command line prints its
     * error and the usage and exits with 2; a failure the user can act on (a port in use, a refused
     * connection, an I/O error) prints one line and exits with 1; anything else is a bug, and prints
     * its stack trace (exit 1).
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        add(
                cl,
                "traditional-server",
                new ServerCommand("traditional-server", 2000),
                "Receives files from traditional-client (or any client): one line per connection, a summary on Ctrl-C.");
        add(
                cl,
                "traditional-client",
                new ClientCommand("traditional-client", 2000, "buffered", 4096),
                "Sends a file with the buffered strategy forced to a 4 KiB direct buffer, the stand-in for "
                        + "2008's read/write loop (FileChannel.read and SocketChannel.write, not streams).");
        add(
                cl,
                "transferto-server",
                new ServerCommand("transferto-server", 9026),
                "The same receiver on the transferTo pair's port, 9026.");
        add(
                cl,
                "transferto-client",
                new ClientCommand(
                        "transferto-client", 9026, "transferTo", io.zerocopy.TransferOptions.DEFAULT_BUFFER_SIZE),
                "Sends a file with FileChannel.transferTo (sendfile): the kernel moves the bytes.");
        cl.addSubcommand("file-copy", new FileCopyCommand());
        cl.addSubcommand("compare", new CompareCommand());
        cl.addSubcommand("demo", new DemoCommand());
        cl.addSubcommand("http-server", new io.zerocopy.examples.http.HttpServerCommand());
        cl.addSubcommand("relay", new RelayCommand());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            Throwable cause = e instanceof UncheckedIOException ? e.getCause() : e;
            if (cause instanceof IOException) {
                commandLine.getErr().println(commandLine.getCommandName() + ": " + describe(cause));
            } else {
                cause.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().flush();
            return 1;
        });
        return cl;
    }

    /** Adds a subcommand whose class serves several names, with this name's own first line of help. */
    private static void add(CommandLine cl, String name, Object command, String summary) {
        CommandLine sub = new CommandLine(command);
        String[] general = sub.getCommandSpec().usageMessage().description();
        String[] description = new String[general.length + 1];
        description[0] = summary;
        System.arraycopy(general, 0, description, 1, general.length);
        sub.getCommandSpec().usageMessage().description(description);
        cl.addSubcommand(name, sub);
    }

    /** The message of an I/O failure, with its type where the message alone says too little. */
    static String describe(Throwable e) {
        String message = e.getMessage();
        String type = e.getClass().getSimpleName();
        if (message == null) {
            return type;
        }
        return switch (type) {
            case "NoSuchFileException" -> "no such file: " + message;
            case "FileAlreadyExistsException" -> "file already exists: " + message;
            case "AccessDeniedException" -> "access denied: " + message;
            case "DirectoryNotEmptyException" -> "directory not empty: " + message;
            case "NotDirectoryException" -> "not a directory: " + message;
            default -> message;
        };
    }

    /**
     * An {@code IllegalArgumentException} of the library's strategy selection worded by what caused
     * it: one of the operators' {@code zerocopy.*} system properties, or else {@code --strategy}.
     */
    static String refusal(String message) {
        if (message != null && message.startsWith("system property ")) {
            return message;
        }
        if (message != null && message.startsWith("excluded: ")) {
            return "system property " + io.zerocopy.TransferOptions.EXCLUDE_PROPERTY + ": " + message;
        }
        return "--strategy: " + message;
    }

    @Override
    public Integer call() {
        // no subcommand: say what there is, and fail as any other incomplete command line does
        spec.commandLine().getErr().println("Missing command.");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** The version shown by {@code --version}: the jar's, and the JVM it runs on. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {
                "zerocopy-examples " + (version == null ? "(development build)" : version),
                "Java " + Runtime.version() + " on " + System.getProperty("os.name") + " "
                        + System.getProperty("os.version")
            };
        }
    }
}
