package io.vortex4j.cli;

import java.sql.SQLException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** {@code vortex4j}: the command-line front end (see {@code bin/vortex4j --help}). */
@Command(name = "vortex4j", mixinStandardHelpOptions = true, version = "vortex4j 0.1.0",
        description = "Query Vortex files from the JVM.",
        subcommands = {DemoCommand.class, SqlCommand.class, GenerateCommand.class, InspectCommand.class,
            SchemaCommand.class, StatsCommand.class, FilterCommand.class, ConvertCommand.class, ExportCommand.class, WarmUpCommand.class})
public final class Main implements Runnable {
    @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "on an error, print its stack trace after the one-line message")
    boolean verbose;

    /** Runs the command line; exits with 0 on success, 1 on an error, 2 on bad usage. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line with its error handling: an error of a command is one line on stderr,
     * {@code vortex4j: <what went wrong>} (the stack trace follows with {@code --verbose}), and exit
     * code 1; bad usage is picocli's message and usage text, and exit code 2.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler(Main::report);
        return cli;
    }

    private static int report(Exception e, CommandLine command, ParseResult parsed) {
        command.getErr().println("vortex4j: " + oneLine(e));
        if (verbose(parsed)) {
            e.printStackTrace(command.getErr());
        }
        command.getErr().flush();
        return 1;
    }

    /** The message of {@code e} on one line: SQL errors are already one line, others are cut at the first. */
    static String oneLine(Throwable e) {
        Throwable shown = e;
        // A command's own wrapper (an argument error around an SQL one, say) adds nothing.
        while (shown.getCause() != null && shown.getMessage() != null && shown.getCause().getMessage() != null
                && shown.getMessage().equals(shown.getCause().getMessage())) {
            shown = shown.getCause();
        }
        String m = shown.getMessage();
        if (m == null || m.isBlank()) {
            return shown.getClass().getSimpleName();
        }
        m = m.strip();
        int nl = m.indexOf('\n');
        String first = nl < 0 ? m : m.substring(0, nl).strip();
        boolean plain = shown instanceof SQLException || shown instanceof io.vortex4j.VortexException
                || shown instanceof IllegalArgumentException || shown instanceof UnsupportedOperationException
                || shown instanceof IllegalStateException;
        return plain ? first : shown.getClass().getSimpleName() + ": " + first;
    }

    private static boolean verbose(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
