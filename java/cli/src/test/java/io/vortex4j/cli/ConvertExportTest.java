package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.VortexSql;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code convert} and {@code export} end to end, answers compared with DuckDB reading the
 * source files itself: the converted files give the source's answers through SQL (push-down on
 * and off), and exports with {@code --where} hold exactly the rows DuckDB's WHERE keeps.
 */
public class ConvertExportTest {
    private static final int ROWS = 20_000;
    private static final String[] SYMS = {"AAPL", "MSFT", "IBM", "NVDA", "Zürich AG", "東京", "a,b", "say \"hi\""};
    private static final String DUCK_COLUMNS =
            "{'id': 'BIGINT', 'sym': 'VARCHAR', 'price': 'DOUBLE', 'volume': 'BIGINT', 'dt': 'DATE', 'note': 'VARCHAR'}";

    private static Path dir;
    private static Path csv;
    private static Connection duck;

    @BeforeClass
    public static void setUp() throws Exception {
        dir = Files.createTempDirectory("vortex4j-convert");
        csv = dir.resolve("trades.csv");
        StringBuilder b = new StringBuilder("id,sym,price,volume,dt,note\n");
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < ROWS; i++) {
            String sym = r.nextInt(20) == 0 ? "NULL" : quote(SYMS[r.nextInt(SYMS.length)]);
            String price = r.nextInt(30) == 0 ? "NULL" : Double.toString(Math.round(r.nextDouble() * 100000) / 100.0);
            String note = r.nextInt(5) == 0 ? quote("") : quote("n" + r.nextInt(1000) + (r.nextBoolean() ? "\nmore" : ""));
            b.append(i).append(',').append(sym).append(',').append(price).append(',').append(r.nextInt(10_000))
                    .append(',').append(String.format("2024-%02d-%02d", 1 + r.nextInt(12), 1 + r.nextInt(28)))
                    .append(',').append(note).append('\n');
        }
        Files.writeString(csv, b, StandardCharsets.UTF_8);
        Class.forName("org.duckdb.DuckDBDriver");
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterClass
    public static void tearDown() throws Exception {
        duck.close();
        deleteTree(dir);
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A CSV field in quotes. */
    static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String duckCsv(Path p) {
        return "read_csv('" + p + "', header = true, nullstr = 'NULL', columns = " + DUCK_COLUMNS + ")";
    }

    /** Rows as text, in query order or sorted. */
    static List<String> rows(Connection c, String sql, boolean sort) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    if (v instanceof Number n && !(v instanceof java.math.BigDecimal)) {
                        v = n instanceof Double || n instanceof Float ? (Object) n.doubleValue() : (Object) n.longValue();
                    } else if (v instanceof java.math.BigDecimal d) {
                        v = d.stripTrailingZeros().toPlainString();
                    } else if (v != null && !(v instanceof String)) {
                        v = v.toString();
                    }
                    row.append(i > 1 ? "|" : "").append(v);
                }
                out.add(row.toString());
            }
        }
        if (sort) {
            out.sort(null);
        }
        return out;
    }

    private static final String[] QUERIES = {
        "SELECT count(*) FROM %s",
        "SELECT count(*) FROM %s WHERE sym = 'AAPL'",
        "SELECT sym, count(*), sum(volume), min(price), max(price) FROM %s GROUP BY sym",
        "SELECT count(*) FROM %s WHERE sym IN ('MSFT', '東京', 'a,b') AND volume > 5000",
        "SELECT count(*), sum(volume) FROM %s WHERE price BETWEEN 100 AND 200 OR sym IS NULL",
        "SELECT id, sym, price, volume, dt, note FROM %s WHERE dt >= DATE '2024-06-01' AND note = ''",
        "SELECT count(*) FROM %s WHERE note LIKE '%%more'",
    };

    /** Each query on DuckDB over {@code source} equals jdbc:vortex over {@code folder} with push-down on and off. */
    private static void assertSameAnswers(String source, Path folder, String table) throws Exception {
        for (String q : QUERIES) {
            List<String> expected = rows(duck, String.format(q, source), true);
            for (boolean pushdown : new boolean[] {true, false}) {
                try (Connection c = VortexSql.connect(folder, pushdown)) {
                    assertEquals(q + " (push-down " + pushdown + ")", expected, rows(c, String.format(q, table), true));
                }
            }
        }
    }

    @Test
    public void csvConvertedReadsLikeTheSourceThroughSql() throws Exception {
        Path out = dir.resolve("from-csv");
        Files.createDirectories(out);
        CliTest.Result r = CliTest.run("convert", csv.toString(), out.resolve("t.vortex").toString(), "--null", "NULL");
        assertEquals(r.out(), 0, r.code());
        assertSameAnswers(duckCsv(csv), out, "t");
    }

    @Test
    public void parquetConvertedReadsLikeTheSourceThroughSql() throws Exception {
        Path parquet = dir.resolve("trades.parquet");
        try (Statement s = duck.createStatement()) {
            s.execute("COPY (SELECT * FROM " + duckCsv(csv) + ") TO '" + parquet + "' (FORMAT parquet, ROW_GROUP_SIZE 4096)");
        }
        Path out = dir.resolve("from-parquet");
        CliTest.Result r = CliTest.run("convert", "--timing", parquet.toString(), out.resolve("t.vortex").toString());
        assertEquals(r.out(), 0, r.code());
        // --timing adds the conversion's own wall-clock and CPU seconds (for bench/convert/run.sh).
        assertTrue(r.err(), r.err().matches("(?s).*\ntiming: wall_s=\\d+\\.\\d{3} cpu_s=\\d+\\.\\d{3} \\(open to closed output, in process\\)\n"));
        assertSameAnswers("read_parquet('" + parquet + "')", out, "t");
    }

    @Test
    public void exportWhereKeepsExactlyTheRowsSqlKeeps() throws Exception {
        Path out = dir.resolve("for-export");
        Path vortex = out.resolve("t.vortex");
        assertEquals(0, CliTest.run("convert", csv.toString(), vortex.toString(), "--null", "NULL").code());
        String[] conditions = {
            "sym = 'AAPL'",
            "sym IN ('IBM', 'Zürich AG') AND volume > 500",
            "NOT (sym <> 'MSFT') OR price < 10",
            "sym IS NULL AND dt BETWEEN DATE '2024-03-01' AND DATE '2024-05-31'",
            // One-column expressions and LIKE: evaluated once per dictionary entry by Calcite's code.
            "upper(sym) = 'AAPL' OR sym LIKE 'Z%'",
        };
        for (String where : conditions) {
            Path parquet = dir.resolve("export.parquet");
            CliTest.Result r = CliTest.run("export", vortex.toString(), "--format", "parquet", "--columns", "id,sym,volume",
                    "--where", where, parquet.toString());
            assertEquals(r.out(), 0, r.code());
            List<String> expected = rows(duck, "SELECT id, sym, volume FROM " + duckCsv(csv) + " WHERE " + where + " ORDER BY id", false);
            assertTrue(where, !expected.isEmpty());
            assertEquals(where, expected, rows(duck, "SELECT * FROM read_parquet('" + parquet + "') ORDER BY id", false));
            Files.delete(parquet);
        }
        // CSV export of everything reads back as the source.
        Path back = dir.resolve("back.csv");
        assertEquals(0, CliTest.run("export", vortex.toString(), "--format", "csv", "--null", "NULL", back.toString()).code());
        assertEquals(rows(duck, "SELECT * FROM " + duckCsv(csv) + " ORDER BY id", false),
                rows(duck, "SELECT * FROM " + duckCsv(back) + " ORDER BY id", false));
    }

    @Test
    public void aConditionThatCannotBeTranslatedExactlyIsRefused() throws IOException {
        Path out = dir.resolve("refuse");
        Path vortex = out.resolve("t.vortex");
        assertEquals(0, CliTest.run("convert", csv.toString(), vortex.toString(), "--null", "NULL").code());
        for (String where : new String[] {"CAST(sym AS INTEGER) = 1", "price > volume"}) {
            // CliTest.run captures stderr itself.
            CliTest.Result r = CliTest.run("export", vortex.toString(), "--format", "csv", "--where", where, dir.resolve("x.csv").toString());
            assertTrue(where + ": " + r.out(), r.code() != 0);
            assertTrue(r.err(), r.err().contains("cannot be translated exactly"));
            assertTrue(!Files.exists(dir.resolve("x.csv")));
        }
        // A condition that is not SQL at all.
        CliTest.Result r = CliTest.run("export", vortex.toString(), "--format", "csv", "--where", "sym = ", dir.resolve("x.csv").toString());
        assertTrue(r.code() != 0);
    }

    @Test
    public void partitionedAndSplitOutput() throws Exception {
        Path parts = dir.resolve("parts");
        CliTest.Result r = CliTest.run("convert", csv.toString(), parts.toString(), "--null", "NULL",
                "--partition-by", "sym", "--max-rows-per-file", "1000");
        assertEquals(r.out(), 0, r.code());
        // Each folder holds exactly the source's rows of that symbol.
        try (Stream<Path> s = Files.list(parts)) {
            for (Path folder : (Iterable<Path>) s::iterator) {
                String name = folder.getFileName().toString();
                assertTrue(name, name.startsWith("sym="));
                String value = java.net.URLDecoder.decode(name.substring(4), StandardCharsets.UTF_8);
                String cond = value.equals("__HIVE_DEFAULT_PARTITION__") ? "sym IS NULL" : "sym = '" + value.replace("'", "''") + "'";
                long expected = Long.parseLong(rows(duck, "SELECT count(*) FROM " + duckCsv(csv) + " WHERE " + cond, false).get(0));
                long got = 0;
                try (Stream<Path> files = Files.list(folder)) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        try (io.vortex4j.reader.VortexFile vf = io.vortex4j.reader.VortexFile.open(f)) {
                            assertTrue(f + " has at most 1000 rows", vf.rowCount() <= 1000);
                            assertEquals(-1, vf.schema().indexOf("sym"));
                            got += vf.rowCount();
                        }
                    }
                }
                assertEquals(name, expected, got);
            }
        }
        // The folder exports as one file holding every row (the partition column is in the folder names).
        Path all = dir.resolve("all.csv");
        assertEquals(0, CliTest.run("export", parts.toString(), "--format", "csv", "--columns", "id,volume", all.toString()).code());
        String sums = "SELECT count(*), sum(id), sum(volume) FROM ";
        assertEquals(rows(duck, sums + duckCsv(csv), false),
                rows(duck, sums + "read_csv('" + all + "', header = true)", false));
    }
}
