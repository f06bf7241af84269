package io.vortex4j.cli;

import io.vortex4j.VortexException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code vortex4j}: the command-line front end (see {@code bin/vortex4j --help}). */
@Command(name = "vortex4j", mixinStandardHelpOptions = true, version = "vortex4j 0.1.0",
        description = "Query Vortex files from the JVM.",
        subcommands = {DemoCommand.class, SqlCommand.class, GenerateCommand.class, InspectCommand.class,
            FilterCommand.class, ConvertCommand.class, ExportCommand.class})
public final class Main implements Runnable {
    /** Runs the command line; exits with 0 on success, 1 on an error, 2 on bad usage. */
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof VortexException || e instanceof UnsupportedOperationException
                    || e instanceof IllegalArgumentException) {
                cmd.getErr().println("vortex4j: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
