package io.vortex4j.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** {@code vortex4j}: the command-line front end (see {@code bin/vortex4j --help}). */
@Command(name = "vortex4j", mixinStandardHelpOptions = true, version = "vortex4j 0.1.0",
        description = "Query Vortex files from the JVM.",
        // Every sub-command takes --help (and --version) too.
        scope = CommandLine.ScopeType.INHERIT)
public final class Main implements Runnable {
    /** The sub-commands, in the order {@code --help} lists them. */
    private static final List<Class<?>> COMMANDS = List.of(DemoCommand.class, SqlCommand.class, GenerateCommand.class,
            InspectCommand.class, SchemaCommand.class, StatsCommand.class, FilterCommand.class, ConvertCommand.class,
            ExportCommand.class, WarmUpCommand.class);

    @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "on an error, print its stack trace after the one-line message")
    boolean verbose;

    private static final String NO_CLOSURES = "picocli.disable.closures";

    /** Runs the command line; exits with 0 on success, 1 on an error, 2 on bad usage. */
    public static void main(String[] args) {
        nameLoggingProvider();
        System.exit(run(args));
    }

    /**
     * Names SLF4J's provider (the no-op one the command line ships; Calcite logs through SLF4J)
     * unless the JVM's options name one: otherwise SLF4J finds it with a service look-up, which
     * opens every jar on the classpath (~60) a few dozen milliseconds into a one-shot query's
     * planner set-up. Naming it makes SLF4J say so at INFO level, hence the verbosity.
     */
    private static void nameLoggingProvider() {
        if (System.getProperty(SLF4J_PROVIDER) == null) {
            System.setProperty(SLF4J_PROVIDER, "org.slf4j.nop.NOPServiceProvider");
            if (System.getProperty(SLF4J_VERBOSITY) == null) {
                System.setProperty(SLF4J_VERBOSITY, "WARN");
            }
        }
    }

    private static final String SLF4J_PROVIDER = "slf4j.provider";
    private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

    /** Runs the command line (see {@link #commandLine(String[])}) and returns its exit code. */
    static int run(String[] args) {
        Integer quick = quickSql(args);
        return quick != null ? quick : commandLine(args).execute(args);
    }

    /**
     * {@code sql} on a plain command line, its arguments set by {@link QuickArgs} instead of picocli
     * (whose loading is a good part of a one-shot query's start-up), with the same error handling;
     * null when the command line is not that, for picocli to parse.
     */
    private static Integer quickSql(String[] args) {
        if (args.length == 0 || !args[0].equals("sql")) {
            return null;
        }
        StartupPreload.start(); // alongside the argument parsing and connecting below
        SqlCommand sql = new SqlCommand();
        QuickArgs.Parsed parsed = QuickArgs.parse(sql, Arrays.asList(args).subList(1, args.length));
        if (parsed == null) {
            return null;
        }
        try {
            return sql.call();
        } catch (Exception e) {
            return report(e, new PrintWriter(System.err, true), parsed.verbose());
        }
    }

    /** {@link #commandLine()} with every sub-command, as {@code --help} and tests see it. */
    static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * The command line with its error handling: an error of a command is one line on stderr,
     * {@code vortex4j: <what went wrong>} (for a syntax error, the statement's line follows with a
     * caret under the column; the stack trace follows with {@code --verbose}), and exit code 1;
     * bad usage is picocli's message and usage text, and exit code 2.
     *
     * <p>When {@code args} name a sub-command (after top-level options), only that one is
     * modelled: picocli builds every command's model from its annotations up front (~10% of a
     * one-shot {@code inspect}'s time for the ten). Otherwise (help, a typo with its suggestions)
     * all of them are.
     */
    static CommandLine commandLine(String[] args) {
        // picocli's default factory otherwise looks for Groovy with Class.forName, which opens
        // every jar on the classpath (~60) to not find it: tens of ms of a command that would
        // otherwise open a few of them (inspect, schema, stats, help).
        if (System.getProperty(NO_CLOSURES) == null) {
            System.setProperty(NO_CLOSURES, "true");
        }
        CommandLine cli = new CommandLine(new Main());
        Class<?> named = named(args);
        for (Class<?> command : named == null ? COMMANDS : List.of(named)) {
            cli.addSubcommand(command);
        }
        cli.setExecutionExceptionHandler(Main::report);
        return cli;
    }

    /** The sub-command the first argument after {@code --verbose} names, or null. */
    private static Class<?> named(String[] args) {
        for (String a : args) {
            if (!a.equals(QuickArgs.VERBOSE)) {
                for (Class<?> command : COMMANDS) {
                    if (command.getAnnotation(Command.class).name().equals(a)) {
                        return command;
                    }
                }
                return null;
            }
        }
        return null;
    }

    private static int report(Exception e, CommandLine command, ParseResult parsed) {
        return report(e, command.getErr(), verbose(parsed));
    }

    private static int report(Exception e, PrintWriter err, boolean verbose) {
        err.println("vortex4j: " + oneLine(e));
        if (e instanceof SqlCommand.PointedError p) {
            err.println(p.pointer);
        }
        if (verbose) {
            e.printStackTrace(err);
        }
        err.flush();
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
            if (p.hasMatchedOption(QuickArgs.VERBOSE)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void run() {
        commandLine().usage(System.out);
    }
}
