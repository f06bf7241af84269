package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Errors on the command line: one line on stderr ({@code vortex4j: <message>}, the trace only
 * with {@code --verbose}), nothing half-printed on stdout, exit code 1 (2 for bad usage).
 */
public class CliErrorsTest {
    private static Path dir;

    @BeforeClass
    public static void generate() throws Exception {
        dir = Files.createTempDirectory("vortex4j-cli-errors");
        dir.toFile().deleteOnExit();
        assertEquals(0, run("generate", "trades", dir.toString(), "--rows", "20000").code);
        dir.resolve("trades.vortex").toFile().deleteOnExit();
    }

    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    /** Runs the command line as {@code main} does (plain {@code sql} lines without picocli), output captured. */
    static Result run(String... args) {
        PrintStream old = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
            System.setErr(oldErr);
        }
    }

    private static void assertOneLineError(Result r, String fragment) {
        assertEquals(r.toString(), 1, r.code);
        String[] lines = r.err.split("\n");
        assertEquals(r.toString(), 1, lines.length);
        assertTrue(r.toString(), lines[0].startsWith("vortex4j: ") && lines[0].contains(fragment));
        assertTrue(r.toString(), lines[0].length() < 600);
    }

    @Test
    public void sqlErrorsAreOneLine() {
        String data = dir.toString();
        assertOneLineError(run("sql", "--data", data, "SELECT 1/0"), "division by zero");
        assertOneLineError(run("sql", "--data", data, "SELECT count(*) FROM trades WHERE volume = 'abc'"),
                "cannot convert 'abc' to a number");
        assertOneLineError(run("sql", "--data", data, "SELECT nope FROM trades"), "Column 'nope' not found");
    }

    /** A syntax error: its line and column, then the statement's line with a caret under the column. */
    @Test
    public void aSyntaxErrorPointsAtTheColumn() {
        String data = dir.toString();
        Result r = run("sql", "--data", data, "SELEC 1");
        assertEquals(r.toString(), 1, r.code);
        assertEquals(r.toString(), "vortex4j: syntax error at line 1, column 1: unexpected \"SELEC\"\n"
                + "LINE 1: SELEC 1\n"
                + "        ^\n", r.err);
        // In a script, the line is the statement's own.
        java.io.InputStream in = System.in;
        System.setIn(new java.io.ByteArrayInputStream(
                "SELECT 1;\nSELECT count(*)\n  FROM trades\n  WHERE sym = 'AAPL' AND AND volume > 10;\n"
                        .getBytes(StandardCharsets.UTF_8)));
        try {
            r = run("sql", "--data", data, "--format", "csv");
        } finally {
            System.setIn(in);
        }
        assertEquals(r.toString(), 1, r.code);
        assertEquals(r.toString(), "vortex4j: syntax error at line 3, column 30: unexpected \"volume\"\n"
                + "LINE 3:   WHERE sym = 'AAPL' AND AND volume > 10\n"
                + " ".repeat(8 + 29) + "^\n", r.err);
    }

    /** A query failing on its first row prints no CSV header (nothing on stdout at all). */
    @Test
    public void nothingHalfPrinted() {
        for (String format : new String[] {"csv", "table"}) {
            Result r = run("sql", "--data", dir.toString(), "--format", format, "SELECT volume / 0 FROM trades");
            assertOneLineError(r, "division by zero");
            assertEquals(r.toString(), "", r.out);
        }
    }

    /** Generated code too large for the JVM: the compiler's reason, not the code. */
    @Test
    public void sqlThatCannotCompileIsOneShortLine() {
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM trades WHERE volume + 1 IN (");
        for (int i = 0; i < 7000; i++) {
            sql.append(i > 0 ? "," : "").append(i);
        }
        Result r = run("sql", "--data", dir.toString(), sql.append(")").toString());
        // Which limit is hit first varies (Janino's 64 KB or nesting, or the planner's stack).
        assertOneLineError(r, "the query ");
        assertTrue(r.toString(), r.err.contains("cannot be compiled: ") || r.err.contains("too deeply nested"));
    }

    @Test
    public void verbosePrintsTheTrace() {
        Result r = run("sql", "--data", dir.toString(), "--verbose", "SELECT 1/0");
        assertEquals(r.toString(), 1, r.code);
        assertTrue(r.toString(), r.err.startsWith("vortex4j: division by zero\n"));
        assertTrue(r.toString(), r.err.contains("java.sql.SQLDataException: division by zero")
                && r.err.contains("\tat ") && r.err.contains("ArithmeticException"));
    }

    @Test
    public void otherCommandsToo() {
        assertOneLineError(run("inspect", dir.resolve("missing.vortex").toString()), "missing.vortex: no such file");
        assertOneLineError(run("filter", dir.resolve("trades.vortex").toString(), "--column", "nope", "--op", "eq",
                "--value", "x"), "'nope'");
        // Bad usage: picocli's message and the usage text, exit code 2.
        assertEquals(2, run("sql", "--no-such-option").code);
        assertEquals(2, run("filter").code);
    }
}
