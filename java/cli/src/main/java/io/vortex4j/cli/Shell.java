package io.vortex4j.cli;

import io.vortex4j.calcite.jdbc.VortexDriver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The interactive SQL shell: sqlline over a {@code jdbc:vortex:} connection, with paths in FROM
 * allowed, the vortex4j commands of {@link ShellApplication}, and its history in {@code
 * ~/.cache/vortex4j/history} ({@code $XDG_CACHE_HOME} respected).
 */
final class Shell {
    private Shell() {}

    /** Runs the shell on stdin until {@code !quit} or the end of input; returns the exit code. */
    static int run(Path folder, boolean pushdown, OutputFormat format) throws IOException {
        String dir = folder.toAbsolutePath().normalize().toString();
        if (dir.contains(";")) {
            throw new IllegalArgumentException("the SQL shell cannot open a folder whose path contains ';': " + dir);
        }
        String url = VortexDriver.PREFIX + dir + ";pushdown=" + pushdown + ";paths=any";
        Path history = cacheFolder().resolve("history");
        Files.createDirectories(history.getParent());
        String outputFormat = format == OutputFormat.TABLE ? "table" : format == OutputFormat.TSV ? "tsv"
                : format == OutputFormat.JSON ? "json" : format == OutputFormat.MARKDOWN ? "table" : "csv";
        String[] args = {"-ac", ShellApplication.class.getName(), "-u", url, "-n", "", "-p", ""};
        // sqlline takes the application's options over the command line's: they go through it.
        Map<String, String> options = new HashMap<>(Map.of("outputFormat", outputFormat,
                "historyFile", history.toString(), "isolation", "TRANSACTION_NONE", "prompt", "vortex4j> ",
                "maxWidth", Integer.toString(terminalWidth())));
        boolean piped = System.console() == null;
        Path script = null;
        if (piped) {
            // Piped input is a script, run as sqlline runs one (its -f): only results reach
            // stdout; each statement is echoed once, numbered, on stderr. Read line by line
            // instead, the line editor would echo the input, then redraw it after a prompt.
            script = Files.createTempFile("vortex4j-shell", ".sql");
            Files.copy(System.in, script, StandardCopyOption.REPLACE_EXISTING);
            options.put("run", script.toString());
            // As at the prompt, a failed statement does not stop the ones after it (the exit
            // status still says one failed).
            options.put("force", "true");
            // A plain line reader, without JLine's warning that there is no terminal.
            System.setProperty("org.jline.terminal.dumb", "true");
        } else {
            System.out.println("vortex4j SQL shell over " + dir + " (tables: its .vortex files; any file by path: "
                    + "SELECT * FROM 'x.vortex'; end statements with ';', !help, !quit)");
        }
        ShellApplication.settings(options);
        // Return the status instead of letting sqlline exit the JVM; Main exits with it.
        System.setProperty(sqlline.SqlLineOpts.PROPERTY_NAME_EXIT, "true");
        try {
            // On a terminal, sqlline's own system terminal: given a stream, it builds an external
            // terminal that echoes what the user's terminal already echoed (each statement twice).
            sqlline.SqlLine.Status status = sqlline.SqlLine.start(args, piped ? System.in : null, true);
            return status == sqlline.SqlLine.Status.OK ? 0 : 1;
        } finally {
            if (script != null) {
                Files.deleteIfExists(script);
            }
        }
    }

    /** vortex4j's cache folder: {@code $XDG_CACHE_HOME/vortex4j}, else {@code ~/.cache/vortex4j}. */
    static Path cacheFolder() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return base.resolve("vortex4j");
    }

    /** The terminal's width ($COLUMNS), or a wide default when unknown (pipes, dumb terminals). */
    private static int terminalWidth() {
        try {
            return Math.max(80, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "")));
        } catch (NumberFormatException e) {
            return 200;
        }
    }
}
