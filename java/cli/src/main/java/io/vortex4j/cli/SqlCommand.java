package io.vortex4j.cli;

import io.vortex4j.calcite.PathAccess;
import io.vortex4j.calcite.VortexSchema;
import io.vortex4j.calcite.VortexSql;
import io.vortex4j.calcite.VortexTable;
import io.vortex4j.calcite.jdbc.Statements;
import io.vortex4j.calcite.jdbc.SyntaxError;
import io.vortex4j.calcite.jdbc.Engine;
import io.vortex4j.calcite.jdbc.VortexDriver;
import io.vortex4j.reader.internal.Native;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sql [--data DIR] [FILE|DIR...] [SQL]}: runs SQL and prints its results; without SQL it
 * reads statements from stdin when that is not a terminal, else opens the interactive shell.
 */
@Command(name = "sql", description = {
    "Run SQL over Vortex files, from the command line or a shell.",
    "The tables: those of a folder (NAME.vortex is table NAME), files given on the command line"
        + " (table NAME too), and any file by path: SELECT * FROM 'data/t.vortex'.",
    "Without SQL: statements from stdin (echo \"SELECT 1\" | vortex4j sql), or the interactive shell."})
final class SqlCommand implements Callable<Integer> {
    @Option(names = "--data", description = "the folder of NAME.vortex files (tables NAME); default the current folder")
    Path data;

    @Option(names = "--format", defaultValue = "table",
            description = "table (default), csv, tsv, json (JSON lines) or markdown")
    String format;

    @Option(names = {"-o", "--output"}, description = "write the results to this file instead of stdout")
    Path output;

    @Option(names = "--no-pushdown", description = "evaluate everything in Calcite (the baseline)")
    boolean noPushdown;

    @Option(names = "--engine", paramLabel = "calcite|native",
            description = "which engine runs the queries: native (DataFusion, where it runs them exactly) or calcite;"
                    + " default the system property vortex4j.engine, else calcite")
    String engine;

    @Option(names = "--shell", description = "the interactive shell even when stdin is not a terminal")
    boolean forceShell;

    @Option(names = "--timing", description = "print where the time went (connect, plan and run, print), and what each statement fetched from object stores, on stderr")
    boolean timing;

    @Parameters(arity = "0..*", paramLabel = "FILE|DIR|SQL",
            description = "Vortex files or a folder to query, then the SQL (statements separated by ;); omit the SQL for stdin or the shell")
    List<String> args = new ArrayList<>();

    /** Where the time of a run went, for {@code --timing}. */
    private final Timing clock = new Timing();

    @Override
    public Integer call() throws Exception {
        OutputFormat out = OutputFormat.of(format);
        List<Path> files = new ArrayList<>();
        Path folder = data;
        List<String> sqlWords = new ArrayList<>();
        for (String a : args) {
            Path p = sqlWords.isEmpty() ? source(a) : null;
            if (p == null) {
                sqlWords.add(a);
            } else if (Files.isDirectory(p)) {
                if (folder != null) {
                    throw new IllegalArgumentException("one data folder at a time: " + folder + " and " + p);
                }
                folder = p;
            } else {
                files.add(p);
            }
        }
        if (folder == null) {
            folder = Paths.get("");
        } else if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException("--data " + folder + " is not a folder");
        }
        if (engine != null) {
            // Every connection the command opens (the shell's too) reads it.
            System.setProperty(Engine.PROPERTY, Engine.of(engine).toString());
        }
        String sql = String.join(" ", sqlWords).strip();
        if (sql.isEmpty() && (forceShell || System.console() != null)) {
            if (!files.isEmpty()) {
                throw new IllegalArgumentException("the shell takes a folder (--data DIR); query files in it by path: "
                        + "SELECT * FROM '" + files.get(0) + "'");
            }
            StartupPreload.await(); // the shell plans on its own thread
            return Shell.run(folder, !noPushdown, out);
        }
        List<String> statements = Statements.split(sql.isEmpty() ? readAll(System.in) : sql);
        StartupPreload.statements(statements);
        clock.lap("start-up");
        PrintWriter w = writer();
        try (Connection c = connect(folder, files, !noPushdown)) {
            clock.lap("connect");
            Native.ensureLoaded(); // the first scan's, while the preload thread may still be busy
            StartupPreload.await(); // before planning: see there
            clock.lap("start-up preload");
            for (String statement : statements) {
                try {
                    io.vortex4j.reader.Stores.Fetched before = timing ? io.vortex4j.reader.Stores.fetched() : null;
                    run(c, statement, out, w);
                    if (before != null) {
                        io.vortex4j.reader.Stores.Fetched fetched = io.vortex4j.reader.Stores.fetched().since(before);
                        if (fetched.requests() > 0 || fetched.cacheHits() > 0 || fetched.listings() > 0) {
                            System.err.println("stores: " + fetched);
                        }
                    }
                } catch (SQLException e) {
                    SyntaxError syntax = SyntaxError.in(e);
                    String pointer = syntax == null ? null : syntax.pointer(statement);
                    throw pointer == null ? e : new PointedError(e, pointer);
                }
            }
        } finally {
            if (output != null) {
                w.close();
            } else {
                w.flush(); // stdout stays open
            }
        }
        clock.report(timing);
        return 0;
    }

    /** {@code arg} as an existing file or folder, or null when it is (part of) the SQL. */
    private static Path source(String arg) {
        if (arg.isEmpty() || arg.indexOf('\n') >= 0 || arg.length() > 4096) {
            return null;
        }
        try {
            Path p = Paths.get(arg);
            return Files.exists(p) ? p : null;
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * A connection over {@code folder} (tables per file), with {@code files} added as tables
     * named by their file names and paths in FROM allowed anywhere: the user of the command line
     * types the paths.
     */
    static Connection connect(Path folder, List<Path> files, boolean pushdown) throws SQLException {
        Properties props = new Properties();
        props.setProperty("directory", folder.toAbsolutePath().toString());
        props.setProperty("pushdown", Boolean.toString(pushdown));
        props.setProperty("paths", PathAccess.ANY.toString());
        Connection c = new VortexDriver().connect(VortexDriver.PREFIX, props);
        try {
            SchemaPlus schema = c.unwrap(CalciteConnection.class).getRootSchema().getSubSchema(VortexSql.SCHEMA);
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.endsWith(VortexSchema.SUFFIX)) {
                    name = name.substring(0, name.length() - VortexSchema.SUFFIX.length());
                }
                schema.add(name, VortexTable.open(name, f.toAbsolutePath(), pushdown));
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void run(Connection c, String sql, OutputFormat out, PrintWriter w) throws SQLException {
        long start = System.nanoTime();
        try (Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                clock.lap("plan and run");
                try (ResultSet rs = s.getResultSet()) {
                    long rows = out.write(Rows.of(rs), w);
                    clock.lap("rows and print");
                    if (out == OutputFormat.TABLE) {
                        System.err.printf("%d %s (%.3f s)%n", rows, rows == 1 ? "row" : "rows",
                                (System.nanoTime() - start) / 1e9);
                    }
                }
            } else if (out == OutputFormat.TABLE) {
                System.err.println(s.getUpdateCount() + " rows affected");
            }
        }
    }

    /** A statement's error with the lines that point at where in the statement it is ({@link SyntaxError#pointer}). */
    static final class PointedError extends SQLException {
        private static final long serialVersionUID = 1L;
        /** What {@link Main} prints under the error's line. */
        final String pointer;

        PointedError(SQLException error, String pointer) {
            super(error.getMessage(), error.getSQLState(), error);
            this.pointer = pointer;
        }
    }

    private PrintWriter writer() throws IOException {
        if (output == null) {
            return new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
        }
        return new PrintWriter(Files.newBufferedWriter(output, StandardCharsets.UTF_8), false);
    }

    private static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
