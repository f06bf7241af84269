package io.vortex4j.cli;

import io.vortex4j.calcite.VortexDriver;
import io.vortex4j.calcite.VortexSql;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sql --data DIR [--format table|csv] [SQL]}: runs one query and prints its result, or,
 * without SQL, opens an interactive SQL shell (sqlline: history, multi-line statements).
 */
@Command(name = "sql", description = "Run SQL over the .vortex files of a folder (one table per file).")
final class SqlCommand implements Callable<Integer> {
    @Option(names = "--data", required = true, description = "the folder of NAME.vortex files (tables NAME)")
    Path data;

    @Option(names = "--format", defaultValue = "table", description = "table (default) or csv")
    String format;

    @Option(names = "--no-pushdown", description = "evaluate everything in Calcite (the baseline)")
    boolean noPushdown;

    @Parameters(arity = "0..*", description = "the query; omit it for an interactive shell")
    List<String> sql = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(data)) {
            throw new IllegalArgumentException("--data " + data + " is not a folder");
        }
        if (!format.equals("table") && !format.equals("csv")) {
            throw new IllegalArgumentException("--format must be table or csv, not '" + format + "'");
        }
        if (sql.isEmpty()) {
            return shell();
        }
        // SQL errors propagate: Main prints them as one line (they are one-line SQLExceptions).
        try (Connection c = VortexSql.connect(data, !noPushdown); Statement s = c.createStatement()) {
            String query = String.join(" ", sql);
            if (s.execute(query)) {
                try (ResultSet rs = s.getResultSet()) {
                    if (format.equals("csv")) {
                        printCsv(rs, System.out);
                    } else {
                        printTable(rs, System.out);
                    }
                }
            } else {
                System.out.println(s.getUpdateCount() + " rows affected");
            }
        }
        return 0;
    }

    private int shell() throws Exception {
        String dir = data.toAbsolutePath().toString();
        if (dir.contains(";")) {
            throw new IllegalArgumentException("the SQL shell cannot open a folder whose path contains ';': " + dir);
        }
        String url = VortexDriver.PREFIX + dir + ";pushdown=" + !noPushdown;
        String[] args = {"-u", url, "-n", "", "-p", "",
            "--outputFormat=" + (format.equals("csv") ? "csv" : "table"),
            "--isolation=TRANSACTION_NONE", "--prompt=vortex4j> ", "--maxWidth=" + terminalWidth()};
        if (System.console() == null) {
            // Piped input: a plain line reader, without JLine's warning that there is no terminal.
            System.setProperty("org.jline.terminal.dumb", "true");
        }
        System.out.println("vortex4j SQL shell over " + data.toAbsolutePath()
                + " (one table per .vortex file; end statements with ';', !quit to leave)");
        // Return the status instead of letting sqlline exit the JVM; Main exits with it.
        System.setProperty(sqlline.SqlLineOpts.PROPERTY_NAME_EXIT, "true");
        sqlline.SqlLine.Status status = sqlline.SqlLine.start(args, System.in, true);
        return status == sqlline.SqlLine.Status.OK ? 0 : 1;
    }

    /** The terminal's width ($COLUMNS), or a wide default when unknown (pipes, dumb terminals). */
    private static int terminalWidth() {
        try {
            return Math.max(80, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "")));
        } catch (NumberFormatException e) {
            return 200;
        }
    }

    /**
     * A header line, then one line per row; values quoted when needed (RFC 4180). The header is
     * printed once the first row is computed, so a query failing on its first row prints nothing
     * on stdout (rows are streamed: a failure later leaves the rows before it).
     */
    static void printCsv(ResultSet rs, PrintStream out) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        StringBuilder line = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            line.append(i > 1 ? "," : "").append(csv(md.getColumnLabel(i)));
        }
        boolean more = rs.next();
        out.println(line);
        for (; more; more = rs.next()) {
            line.setLength(0);
            for (int i = 1; i <= n; i++) {
                Object v = rs.getObject(i);
                line.append(i > 1 ? "," : "").append(v == null ? "" : csv(String.valueOf(v)));
            }
            out.println(line);
        }
    }

    private static String csv(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    /** An aligned text table with a row count. */
    static void printTable(ResultSet rs, PrintStream out) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String[]> rows = new ArrayList<>();
        String[] header = new String[n];
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            header[i] = md.getColumnLabel(i + 1);
            width[i] = header[i].length();
        }
        while (rs.next()) {
            String[] row = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = rs.getObject(i + 1);
                row[i] = v == null ? "NULL" : String.valueOf(v);
                width[i] = Math.max(width[i], row[i].length());
            }
            rows.add(row);
        }
        StringBuilder sep = new StringBuilder("+");
        for (int w : width) {
            sep.append("-".repeat(w + 2)).append('+');
        }
        out.println(sep);
        out.println(line(header, width));
        out.println(sep);
        for (String[] r : rows) {
            out.println(line(r, width));
        }
        out.println(sep);
        out.println(rows.size() + (rows.size() == 1 ? " row" : " rows"));
    }

    private static String line(String[] cells, int[] width) {
        StringBuilder b = new StringBuilder("|");
        for (int i = 0; i < cells.length; i++) {
            b.append(' ').append(cells[i]).append(" ".repeat(width[i] - cells[i].length())).append(" |");
        }
        return b.toString();
    }
}
