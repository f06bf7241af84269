package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Values;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.BeforeClass;
import org.junit.Test;

/** Where {@code sql} finds its data (files by path in FROM, files as arguments, stdin), and {@code schema}/{@code stats}. */
public class SqlSourcesTest {
    private static Path dir;
    private static Path trades;
    private static Path other;

    @BeforeClass
    public static void write() throws Exception {
        dir = Files.createTempDirectory("vortex4j-sources");
        dir.toFile().deleteOnExit();
        trades = dir.resolve("trades.vortex");
        trades.toFile().deleteOnExit();
        Trades.write(trades, 20_000, 7, n -> {});
        other = Files.createTempDirectory("vortex4j-other");
        other.toFile().deleteOnExit();
    }

    private static String csv(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "sql";
        all[1] = "--format";
        all[2] = "csv";
        System.arraycopy(args, 0, all, 3, args.length);
        CliTest.Result r = CliTest.run(all);
        assertEquals(r.out() + r.err(), 0, r.code());
        return r.out();
    }

    /** The count of the reader's own filtered scan. */
    private static long aapl() {
        try (VortexFile f = VortexFile.open(trades)) {
            return f.referenceFilteredCount(io.vortex4j.reader.predicate.Predicate.eq("sym", "AAPL"), false, "sym");
        }
    }

    @Test
    public void filesByPathInFrom() {
        String expected = "c\n" + aapl() + "\n";
        String q = " WHERE sym = 'AAPL'";
        // Relative to --data, absolute from anywhere, and the file as an argument (table "trades").
        assertEquals(expected, csv("--data", dir.toString(), "SELECT count(*) AS c FROM 'trades.vortex'" + q));
        assertEquals(expected, csv("--data", other.toString(), "SELECT count(*) AS c FROM '" + trades + "'" + q));
        assertEquals(expected, csv("--data", other.toString(), "SELECT count(*) AS c FROM \"" + trades + "\"" + q));
        assertEquals(expected, csv(trades.toString(), "SELECT count(*) AS c FROM trades" + q));
        assertEquals(expected, csv(dir.toString(), "SELECT count(*) AS c FROM trades" + q));
        // Joined with itself, lower-case keywords, in a sub-query.
        assertEquals(expected, csv("--data", dir.toString(), "select count(*) as c from (select a.sym from 'trades.vortex' a "
                + "join 'trades.vortex' b on a.ts = b.ts and a.volume = b.volume and a.price = b.price) t" + q));
        // Pushed into the scan like a folder's table.
        String plan = csv("--data", dir.toString(), "EXPLAIN PLAN FOR SELECT count(*) FROM 'trades.vortex'" + q);
        assertTrue(plan, plan.contains("VortexAggregateScan") && plan.contains("filter=[sym = 'AAPL']"));
        // A string after FROM inside a function is left alone.
        assertEquals("s\nbc\n", csv("SELECT SUBSTRING('abc' FROM 2) AS s"));
        CliTest.Result missing = CliTest.run("sql", "--data", dir.toString(), "SELECT * FROM 'nope.vortex'");
        assertEquals(1, missing.code());
        assertTrue(missing.err(), missing.err().contains("nope.vortex") && missing.err().contains("no such file"));
    }

    @Test
    public void statementsFromStdin() {
        InputStream old = System.in;
        String script = "-- a comment; not a statement\nSELECT count(*) AS c FROM trades WHERE sym = 'AAPL';\n"
                + "SELECT 'a;b' AS \"t;\" ;\n\n";
        System.setIn(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)));
        try {
            assertEquals("c\n" + aapl() + "\nt;\na;b\n", csv("--data", dir.toString()));
        } finally {
            System.setIn(old);
        }
    }

    /** schema against the reader's schema: names, nullability and dtypes; SQL types as the adapter maps them. */
    @Test
    public void schemaMatchesTheReader() throws Exception {
        CliTest.Result r = CliTest.run("schema", trades.toString(), "--format", "csv");
        assertEquals(r.err(), 0, r.code());
        String[] lines = r.out().split("\n");
        assertEquals("table,column,sql_type,nullable,vortex_type", lines[0]);
        List<Field> fields;
        try (VortexFile f = VortexFile.open(trades)) {
            fields = f.schema().fields();
        }
        assertEquals(r.out(), fields.size() + 1, lines.length);
        for (int i = 0; i < fields.size(); i++) {
            Field field = fields.get(i);
            String sql = field.type().toString().equals("i64") ? "BIGINT" : field.type().toString().equals("f64")
                    ? "DOUBLE" : "VARCHAR";
            assertEquals("trades," + field.name() + "," + sql + "," + (field.nullable() ? "YES" : "NO") + ","
                    + field.type(), lines[i + 1]);
        }
        // A folder: the same rows for its one file.
        assertEquals(r.out(), CliTest.run("schema", dir.toString(), "--format", "csv").out());
    }

    /** stats against a row-by-row pass of the reader: nulls, min, max, distinct values. */
    @Test
    public void statsMatchTheReader() throws Exception {
        CliTest.Result r = CliTest.run("stats", trades.toString(), "--format", "csv");
        assertEquals(r.err(), 0, r.code());
        String[] lines = r.out().split("\n");
        assertEquals("table,column,type,rows,bytes,nulls,min,max,distinct", lines[0]);
        try (VortexFile f = VortexFile.open(trades)) {
            List<Field> fields = f.schema().fields();
            assertEquals(r.out(), fields.size() + 1, lines.length);
            for (int i = 0; i < fields.size(); i++) {
                long nulls = 0;
                Comparable<Object> min = null;
                Comparable<Object> max = null;
                Set<Object> distinct = new HashSet<>();
                try (Scan scan = f.scan(fields.get(i).name())) {
                    for (Chunk chunk : scan) {
                        try (chunk) {
                            Array a = chunk.column(0);
                            for (int row = 0; row < a.length(); row++) {
                                @SuppressWarnings("unchecked")
                                Comparable<Object> v = (Comparable<Object>) Values.valueAt(a, row);
                                if (v == null) {
                                    nulls++;
                                    continue;
                                }
                                distinct.add(v);
                                min = min == null || v.compareTo(min) < 0 ? v : min;
                                max = max == null || v.compareTo(max) > 0 ? v : max;
                            }
                        }
                    }
                }
                String[] cells = lines[i + 1].split(",", -1);
                String name = fields.get(i).name();
                assertEquals(name, "trades", cells[0]);
                assertEquals(name, name, cells[1]);
                assertEquals(name, String.valueOf(f.rowCount()), cells[3]);
                assertEquals(name, String.valueOf(Files.size(trades)), cells[4]);
                assertEquals(name, String.valueOf(nulls), cells[5]);
                assertEquals(name, min.toString(), number(min, cells[6]));
                assertEquals(name, max.toString(), number(max, cells[7]));
                if (name.equals("sym")) {
                    assertEquals(name, String.valueOf(distinct.size()), cells[8]);
                } else {
                    assertEquals(name + " is not dictionary-encoded", "", cells[8]);
                }
            }
        }
    }

    /** A double's text read back, so 1.5 and 1.5E0 compare equal. */
    private static String number(Object expected, String cell) {
        return expected instanceof Double ? Double.valueOf(cell).toString() : cell;
    }

    /** Arguments that are existing files come first; the rest is the SQL. */
    @Test
    public void sqlWordsAreJoined() {
        List<String> args = new ArrayList<>(List.of("--data", dir.toString(), "SELECT", "count(*)", "AS", "c", "FROM", "trades"));
        String out = csv(args.toArray(new String[0]));
        assertEquals("c\n20000\n", out);
    }
}
