package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.BeforeClass;
import org.junit.Test;

/** The commands end to end on a small generated sample. */
public class CliTest {
    private static Path dir;

    @BeforeClass
    public static void generate() throws Exception {
        dir = Files.createTempDirectory("vortex4j-cli");
        dir.toFile().deleteOnExit();
        assertEquals(0, run("generate", "trades", dir.toString(), "--rows", "200000").code);
        dir.resolve("trades.vortex").toFile().deleteOnExit();
    }

    record Result(int code, String out, String err) {}

    /** Runs the command line in this JVM, stdout and stderr captured. */
    static Result run(String... args) {
        PrintStream old = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            return new Result(code, buf.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
            System.setErr(oldErr);
        }
    }

    @Test
    public void inspectShowsRowsAndTheDictionary() {
        Result r = run("inspect", dir.resolve("trades.vortex").toString());
        assertEquals(r.out, 0, r.code);
        assertTrue(r.out, r.out.contains("rows     200,000"));
        assertTrue(r.out, r.out.matches("(?s).*sym  utf8 \\(nullable\\)  \\[dictionary-encoded\\].*"));
    }

    /** Every op gives the same row count on the three paths. */
    @Test
    public void filterPathsAgreeForEveryOp() {
        String file = dir.resolve("trades.vortex").toString();
        String[][] cases = {
            {"--op", "eq", "--value", "AAPL"}, {"--op", "ne", "--value", "AAPL"},
            {"--op", "lt", "--value", "GOOG"}, {"--op", "le", "--value", "GOOG"},
            {"--op", "gt", "--value", "GOOG"}, {"--op", "ge", "--value", "GOOG"},
            {"--op", "between", "--value", "B", "--value", "MSFT"},
            {"--op", "in", "--value", "AAPL", "--value", "IBM", "--value", "nope"},
            {"--op", "not-in", "--value", "AAPL", "--value", "IBM"},
            {"--op", "not-in", "--value", "AAPL", "--value", "NULL"},
            {"--op", "is-null"}, {"--op", "is-not-null"},
        };
        Pattern line = Pattern.compile("path=(\\w+) rows=(\\d+) ms=[0-9.]+");
        for (String[] c : cases) {
            String[] args = new String[5 + c.length];
            args[0] = "filter";
            args[1] = file;
            args[2] = "--column";
            args[3] = "sym";
            args[4] = "--runs=1";
            System.arraycopy(c, 0, args, 5, c.length);
            Result r = run(args);
            assertEquals(r.out, 0, r.code);
            Matcher m = line.matcher(r.out);
            long rows = -1;
            int paths = 0;
            while (m.find()) {
                long n = Long.parseLong(m.group(2));
                if (rows >= 0) {
                    assertEquals(String.join(" ", c) + ": " + r.out, rows, n);
                }
                rows = n;
                paths++;
            }
            assertEquals(r.out, 3, paths);
        }
        // Numeric columns: the literal is parsed by the column's type.
        Result r = run("filter", file, "--column", "volume", "--op", "gt", "--value", "700.5", "--runs=1");
        assertEquals(r.out, 0, r.code);
    }

    /** csv: a header line, then one line per row, nothing else on stdout. */
    @Test
    public void sqlCsvIsJustTheRows() {
        Result r = run("sql", "--data", dir.toString(), "--format", "csv",
                "SELECT sym, count(*) AS n FROM trades WHERE sym IN ('AAPL', 'MSFT') GROUP BY sym ORDER BY sym");
        assertEquals(r.out, 0, r.code);
        String[] lines = r.out.split("\n");
        assertEquals(r.out, 3, lines.length);
        assertEquals("sym,n", lines[0]);
        assertTrue(lines[1], lines[1].startsWith("AAPL,"));
        assertTrue(lines[2], lines[2].startsWith("MSFT,"));
        // The same count the reader gives.
        long aapl = Long.parseLong(lines[1].substring(5));
        Result f = run("filter", dir.resolve("trades.vortex").toString(), "--column", "sym", "--op", "eq",
                "--value", "AAPL", "--path", "native", "--runs=1");
        assertTrue(f.out, f.out.contains("rows=" + aapl + " "));
        Result table = run("sql", "--data", dir.toString(), "SELECT count(*) AS n FROM trades");
        assertTrue(table.out, table.out.contains("| 200000 |") && !table.out.contains("1 row"));
        // The row count and the time: on stderr, in table mode only.
        assertTrue(table.err, table.err.matches("1 row \\([0-9.]+ s\\)\\s*"));
        assertEquals("", run("sql", "--data", dir.toString(), "--format", "csv", "SELECT 1").err);
        assertEquals(1, run("sql", "--data", dir.toString(), "SELECT nope FROM trades").code);
    }

    /** SQL on the command line may end with ';' and hold several statements, run in turn. */
    @Test
    public void sqlOnTheCommandLineIsSplitIntoStatements() {
        Result one = run("sql", "--data", dir.toString(), "--format", "csv", "SELECT count(*) AS n FROM trades;");
        assertEquals(one.err, 0, one.code);
        assertEquals("n\n200000\n", one.out);
        Result two = run("sql", "--data", dir.toString(), "--format", "csv",
                "SELECT 1 AS a; SELECT 'x;y' AS b; -- done");
        assertEquals(two.err, 0, two.code);
        assertEquals("a\n1\nb\nx;y\n", two.out);
    }

    /** Columns are named by their expressions; EXPLAIN prints an operator per line. */
    @Test
    public void readableColumnNamesAndAnOperatorPerPlanLine() {
        Result names = run("sql", "--data", dir.toString(), "--format", "csv",
                "SELECT count(*), sum(volume) > 0, max(price) AS top FROM trades");
        assertEquals(names.err, 0, names.code);
        assertEquals(names.out, "count(*),sum(volume) > 0,top", names.out.split("\n")[0]);
        Result plan = run("sql", "--data", dir.toString(), "--format", "tsv",
                "EXPLAIN PLAN FOR SELECT sym, count(*) AS n FROM trades GROUP BY sym ORDER BY n DESC");
        assertEquals(plan.err, 0, plan.code);
        String[] lines = plan.out.split("\n");
        assertEquals(plan.out, 3, lines.length);
        assertEquals("plan", lines[0]);
        assertTrue(plan.out, lines[1].startsWith("EnumerableSort(") && lines[2].startsWith("  VortexAggregateScan("));
        Result table = run("sql", "--data", dir.toString(),
                "EXPLAIN PLAN FOR SELECT sym, count(*) AS n FROM trades GROUP BY sym ORDER BY n DESC");
        assertTrue(table.out, table.out.contains("| EnumerableSort(") && table.out.contains("|   VortexAggregateScan("));
    }

    /**
     * Without SQL, `sql` is a sqlline shell over the folder: statements span lines, end with ';'.
     * Piped in, it is a script: stdout holds the results alone (no prompt, no echo of the input,
     * no terminal control codes), each statement is echoed once, on stderr; a failed statement
     * does not stop the ones after it, and the exit status says one failed.
     */
    @Test
    public void theShellRunsStatementsFromItsInput() {
        java.io.InputStream old = System.in;
        String input = "SELECT count(*) AS n\n  FROM trades\n  WHERE sym = 'AAPL';\n"
                + "SELECT nope FROM trades;\n"
                + "SELECT count(*) AS all_rows FROM trades;\n!quit\n";
        System.setIn(new java.io.ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            Result r = run("sql", "--data", dir.toString(), "--format", "csv", "--shell");
            // The answers from one-shot queries, outside the shell.
            Result aapl = run("sql", "--data", dir.toString(), "--format", "csv",
                    "SELECT count(*) AS n FROM trades WHERE sym = 'AAPL'");
            Result all = run("sql", "--data", dir.toString(), "--format", "csv",
                    "SELECT count(*) AS all_rows FROM trades");
            String n = aapl.out.split("\n")[1].trim();
            String total = all.out.split("\n")[1].trim();
            assertEquals("200000", total);
            assertEquals(r.out + r.err, 1, r.code);
            assertEquals(r.err, "'n'\n'" + n + "'\n'all_rows'\n'" + total + "'\n", r.out.replace("\r", ""));
            // Each statement once on stderr, with the error naming the column.
            assertEquals(r.err, 1, r.err.split("WHERE sym = 'AAPL'", -1).length - 1);
            assertEquals(r.err, 1, r.err.split("AS all_rows FROM trades", -1).length - 1);
            assertTrue(r.err, r.err.contains("Column 'nope' not found"));
        } finally {
            System.setIn(old);
        }
    }

    /** The demo runs its workload end to end on a small sample. */
    @Test
    public void demoRunsTheWorkload() {
        Path demo = dir.resolve("demo");
        Result r = run("demo", "--data", demo.toString(), "--rows", "30000", "--runs", "1", "--skip-baseline");
        demo.resolve("trades.vortex").toFile().deleteOnExit();
        demo.toFile().deleteOnExit();
        assertEquals(r.out, 0, r.code);
        for (int q = 1; q <= DemoCommand.WORKLOAD.size(); q++) {
            assertTrue(r.out, r.out.contains("Q" + q + " "));
        }
        // One timing line per workload query, and one for the parameter sweep.
        assertEquals(r.out, DemoCommand.WORKLOAD.size() + 1, r.out.split("\\| planned ", -1).length - 1);
        assertTrue(r.out, r.out.contains("Q" + (DemoCommand.WORKLOAD.size() + 1) + "  parameter: "));
    }

    @Test
    public void badArgumentsAreErrorsNotCrashes() {
        String file = dir.resolve("trades.vortex").toString();
        assertEquals(1, run("filter", file, "--column", "nope", "--op", "eq", "--value", "x").code);
        assertEquals(1, run("filter", file, "--column", "volume", "--op", "eq", "--value", "abc").code);
        assertEquals(1, run("filter", file, "--column", "sym", "--op", "eq").code);
        assertEquals(1, run("inspect", dir.resolve("missing.vortex").toString()).code);
        assertEquals(2, run("filter", file).code);
    }
}
