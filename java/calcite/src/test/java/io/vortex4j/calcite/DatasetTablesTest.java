package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.dataset.VortexDataset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Folders of Vortex files as tables: the same rows in 1, 10 and 100 files give the single file's
 * answers (Calcite over the single file without push-down is the reference), push-down on and
 * off; Hive folders give the flat file's answers with the partition value as a WHERE, pruning
 * files unopened; broken folders fail naming the file.
 */
public class DatasetTablesTest extends WithConnections {
    private static Path root;
    private static final int[] FILE_COUNTS = {1, 10, 100};
    private static final List<Connection> datasetPush = new ArrayList<>();
    private static final List<Connection> datasetPlain = new ArrayList<>();

    @BeforeClass
    public static void writeFolders() throws Exception {
        root = Files.createTempDirectory("vortex4j-datasets");
        for (int n : FILE_COUNTS) {
            Path dir = root.resolve("n" + n);
            split(TestData.dir().resolve("trades.vortex"), dir.resolve("trades"), n);
            split(TestData.dir().resolve("types.vortex"), dir.resolve("types"), n);
            datasetPush.add(VortexSql.connect(dir, true));
            datasetPlain.add(VortexSql.connect(dir, false));
        }
        writeHive(root.resolve("hive"));
    }

    @AfterClass
    public static void closeAll() throws Exception {
        for (Connection c : datasetPush) {
            c.close();
        }
        for (Connection c : datasetPlain) {
            c.close();
        }
        delete(root);
    }

    /** Writes the rows of {@code source} to {@code n} files of {@code folder}, in order, contiguous ranges. */
    static void split(Path source, Path folder, int n) {
        long rows;
        try (VortexFile f = VortexFile.open(source)) {
            rows = f.rowCount();
        }
        List<Path> targets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            targets.add(folder.resolve(String.format("part-%03d.vortex", i)));
        }
        RowCopier.copy(source, targets, row -> (int) (row * n / rows));
    }

    /** The queries every folder must answer as the single files do. */
    static List<String> workload(int offset, int stride) {
        List<String> sqls = new ArrayList<>();
        String[] filters = PushdownEquivalenceTest.TRADES_FILTERS;
        for (int i = offset; i < filters.length; i += stride) {
            String f = filters[i];
            sqls.add("SELECT ts, sym, price, volume FROM trades WHERE " + f);
            sqls.add("SELECT count(*) FROM trades WHERE " + f);
            sqls.add("SELECT sym, count(*), sum(volume), min(volume), max(volume), avg(volume), sum(price),"
                    + " avg(price), min(ts), max(ts), count(sym) FROM trades WHERE " + f + " GROUP BY sym");
            sqls.add("SELECT count(*), sum(volume), avg(volume), min(price), max(price), min(sym) FROM trades WHERE " + f);
        }
        sqls.add("SELECT count(*) FROM trades");
        sqls.add("SELECT count(*), count(s), count(bin) FROM types");
        sqls.add("SELECT * FROM types WHERE MOD(id, 7) = 3");
        sqls.add("SELECT s, count(*), sum(qty), sum(u32), sum(u64), sum(amount), sum(f64), min(d), max(ts_us), min(bin),"
                + " max(i64), min(u64) FROM types GROUP BY s");
        sqls.add("SELECT b, count(*), sum(i64), sum(CAST(u8 AS BIGINT)), avg(amount) FROM types WHERE qty < 50 OR s IS NULL"
                + " GROUP BY b");
        sqls.add("SELECT UPPER(s2), count(*) FROM types GROUP BY UPPER(s2)");
        sqls.add("SELECT ts, sym FROM trades WHERE sym = 'AAPL' ORDER BY ts LIMIT 7");
        sqls.add("SELECT sym, count(*) FROM trades GROUP BY sym ORDER BY 2 DESC LIMIT 5");
        return sqls;
    }

    @Test
    public void foldersGiveTheSingleFileAnswers() throws SQLException {
        for (int k = 0; k < FILE_COUNTS.length; k++) {
            int n = FILE_COUNTS[k];
            // Each folder takes every third filter of the workload, the three folders all of them.
            for (String sql : workload(k, FILE_COUNTS.length)) {
                String what = n + " files: " + sql;
                List<List<Object>> expected = Answers.sorted(Sql.rows(plain, sql));
                // Calcite reading the folder row by row adds in the same order as over the file: exact.
                assertEquals(what + " (push-down off)", Sql.answer(plain, sql), Sql.answer(datasetPlain.get(k), sql));
                Answers.assertClose(what + " (push-down on)", expected, Answers.sorted(Sql.rows(datasetPush.get(k), sql)));
            }
        }
    }

    @Test
    public void explainShowsFilesAndSplits() throws SQLException {
        String plan = Sql.explain(datasetPush.get(1), "SELECT count(*) FROM trades WHERE sym = 'AAPL'");
        assertTrue(plan, plan.contains("files=[10 of 10], splits=[10]"));
        // A single file's plan has no files item.
        String single = Sql.explain(push, "SELECT count(*) FROM trades WHERE sym = 'AAPL'");
        assertTrue(single, !single.contains("files="));
    }

    // ---- Hive folders ----

    private static final String[] DAYS = {"2026-01-01", "2026-01-02", "2026-01-03"};

    /**
     * {@code trades} re-written under {@code d=DAY/v=K/c=CLASS/}: d from volume % 3, v = volume % 2,
     * c from the symbol (null symbols under the Hive default partition): 18 folders.
     */
    static void writeHive(Path hive) throws SQLException {
        List<List<Object>> rows = Sql.rows(plain, "SELECT volume, sym FROM trades");
        List<Path> targets = new ArrayList<>();
        for (String d : DAYS) {
            for (int v = 0; v < 2; v++) {
                for (String c : new String[] {"a-l", "m-z", "__HIVE_DEFAULT_PARTITION__"}) {
                    targets.add(hive.resolve("d=" + d).resolve("v=" + v).resolve("c=" + c).resolve("f.vortex"));
                }
            }
        }
        RowCopier.copy(TestData.dir().resolve("trades.vortex"), targets, row -> {
            long volume = ((Number) rows.get((int) row).get(0)).longValue();
            String sym = (String) rows.get((int) row).get(1);
            int c = sym == null ? 2 : sym.compareTo("M") < 0 ? 0 : 1;
            return (int) (volume % 3) * 6 + (int) (volume % 2) * 3 + c;
        });
    }

    /** The partition columns of {@code hive} as expressions over the flat {@code trades}. */
    static String flat(String sql) {
        return sql.replace("FROM hive", "FROM (SELECT ts, sym, price, volume,"
                + " CAST(TIMESTAMPADD(DAY, CAST(MOD(volume, 3) AS INTEGER), DATE '2026-01-01') AS DATE) AS d,"
                + " CAST(MOD(volume, 2) AS BIGINT) AS v,"
                + " CASE WHEN sym IS NULL THEN CAST(NULL AS VARCHAR) WHEN sym < 'M' THEN 'a-l' ELSE 'm-z' END AS c"
                + " FROM trades) AS hive");
    }

    @Test
    public void hiveFoldersGiveTheFlatFileAnswers() throws SQLException {
        try (Connection hivePush = VortexSql.connect(root, true); Connection hivePlain = VortexSql.connect(root, false)) {
            String[] sqls = {
                "SELECT d, v, c, count(*), sum(volume), min(price), max(ts) FROM hive GROUP BY d, v, c",
                "SELECT count(*) FROM hive WHERE d = DATE '2026-01-02'",
                "SELECT count(*), sum(volume), avg(price) FROM hive WHERE v = 1 AND sym = 'AAPL'",
                "SELECT c, count(*) FROM hive GROUP BY c",
                "SELECT d, count(*) FROM hive WHERE c IS NULL GROUP BY d",
                "SELECT sym, count(*), sum(volume) FROM hive WHERE d > DATE '2026-01-01' AND c = 'm-z' GROUP BY sym",
                "SELECT ts, sym, price, volume, d, v, c FROM hive WHERE d >= DATE '2026-01-02' AND price > 400",
                "SELECT v, sum(price) FROM hive WHERE d = DATE '2026-01-03' OR volume > 1000 GROUP BY v",
                "SELECT count(*) FROM hive WHERE c LIKE 'a%' AND v <> 0",
                "SELECT count(*) FROM hive WHERE d IN (DATE '2026-01-01', DATE '2026-01-03') AND v = 0",
            };
            for (String sql : sqls) {
                List<List<Object>> expected = Answers.sorted(Sql.rows(plain, flat(sql)));
                assertTrue(sql + " is not vacuous", !expected.isEmpty());
                Answers.assertClose(sql + " (push-down on)", expected, Answers.sorted(Sql.rows(hivePush, sql)));
                Answers.assertClose(sql + " (push-down off)", expected, Answers.sorted(Sql.rows(hivePlain, sql)));
            }
        }
    }

    @Test
    public void partitionFiltersPruneFilesUnopened() throws Exception {
        VortexSchema schema = new VortexSchema(root, true);
        try (Connection c = VortexSql.connect(root, true)) {
            c.unwrap(CalciteConnection.class).getRootSchema().add("fresh", schema);
            String sql = "SELECT count(*) FROM fresh.hive WHERE d = DATE '2026-01-02' AND v = 1";
            String plan = Sql.explain(c, sql);
            assertTrue(plan, plan.contains("files=[3 of 18], splits=[3]"));
            long expected = ((Number) Sql.scalar(plain,
                    "SELECT count(*) FROM trades WHERE MOD(volume, 3) = 1 AND MOD(volume, 2) = 1")).longValue();
            assertEquals(expected, ((Number) Sql.scalar(c, sql)).longValue());
            assertEquals(List.of(expected), Sql.longs(c, "SELECT count(*) FROM fresh.hive WHERE d = DATE '2026-01-02'"
                    + " AND v = 1 AND ts > 0"));
            VortexDataset dataset = ((VortexTable) schema.getTable("hive")).dataset();
            Set<String> opened = dataset.openedFiles();
            String first;
            try (var walk = Files.walk(root.resolve("hive"))) {
                first = walk.filter(Files::isRegularFile).map(Path::toString).sorted().findFirst().get();
            }
            for (String path : opened) {
                boolean kept = path.contains("/d=2026-01-02/v=1/");
                assertTrue("opened " + path + " of " + opened, kept || path.equals(first)); // the first: the schema
            }
            assertEquals(opened.toString(), 4, opened.size());
        }
    }

    @Test
    public void pathTablesOpenFoldersAndGlobs() throws SQLException {
        try (Connection c = VortexSql.connect(root, true)) {
            long expected = ((Number) Sql.scalar(plain, "SELECT count(*) FROM trades WHERE sym = 'MSFT'")).longValue();
            assertEquals(List.of(expected), Sql.longs(c, "SELECT count(*) FROM 'n10/trades' WHERE sym = 'MSFT'"));
            assertEquals(List.of(expected), Sql.longs(c, "SELECT count(*) FROM 'n100/trades/*.vortex' WHERE sym = 'MSFT'"));
            long some = ((Number) Sql.scalar(plain,
                    "SELECT count(*) FROM (SELECT sym FROM trades WHERE MOD(volume, 3) = 2) WHERE sym = 'MSFT'")).longValue();
            assertEquals(List.of(some), Sql.longs(c, "SELECT count(*) FROM 'hive/d=2026-01-03/*/*/*.vortex'"
                    + " WHERE sym = 'MSFT'"));
            try {
                Sql.rows(c, "SELECT count(*) FROM '../*.vortex'");
                fail("a glob out of the folder was read");
            } catch (SQLException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'..' is refused"));
            }
        }
    }

    // ---- broken folders ----

    @Test
    public void brokenFoldersFailNamingTheFile() throws Exception {
        Path dir = Files.createTempDirectory(root, "broken");
        Path mixed = dir.resolve("mixed");
        Files.createDirectories(mixed);
        Files.copy(TestData.dir().resolve("trades.vortex"), mixed.resolve("a.vortex"));
        Files.copy(TestData.dir().resolve("words.vortex"), mixed.resolve("b.vortex"));
        Path junk = dir.resolve("junk");
        Files.createDirectories(junk);
        Files.copy(TestData.dir().resolve("trades.vortex"), junk.resolve("a.vortex"));
        Files.writeString(junk.resolve("b.vortex"), "not a vortex file");
        Path gone = dir.resolve("gone");
        Files.createDirectories(gone);
        Files.copy(TestData.dir().resolve("trades.vortex"), gone.resolve("a.vortex"));
        Files.copy(TestData.dir().resolve("trades.vortex"), gone.resolve("b.vortex"));
        Files.createDirectories(dir.resolve("empty/sub"));
        Files.copy(TestData.dir().resolve("trades.vortex"), dir.resolve("both.vortex"));
        Files.createDirectories(dir.resolve("both"));
        Files.copy(TestData.dir().resolve("trades.vortex"), dir.resolve("both/x.vortex"));
        try (Connection c = VortexSql.connect(dir, true)) {
            assertFails(c, "SELECT count(*) FROM mixed WHERE sym = 'A'", mixed.resolve("b.vortex").toString(),
                    "has no column");
            assertFails(c, "SELECT count(*) FROM junk WHERE sym = 'A'", junk.resolve("b.vortex").toString());
            assertFails(c, "SELECT count(*) FROM 'empty/'", dir.resolve("empty").toString());
            assertFails(c, "SELECT count(*) FROM both", dir.resolve("both.vortex").toString(),
                    dir.resolve("both").toString());
            // Listed (and planned) while both files were there; then one disappears.
            assertEquals(2 * TestData.TRADES_ROWS, ((Number) Sql.scalar(c, "SELECT count(*) FROM gone")).longValue());
            Files.delete(gone.resolve("b.vortex"));
            assertFails(c, "SELECT sum(volume) FROM gone", gone.resolve("b.vortex").toString(), "no such file");
            assertFails(c, "SELECT * FROM gone WHERE volume > 1000", gone.resolve("b.vortex").toString(), "no such file");
        }
    }

    private static void assertFails(Connection c, String sql, String... parts) {
        try {
            Sql.rows(c, sql);
            fail(sql + " should fail");
        } catch (SQLException e) {
            String message = e.getMessage();
            assertTrue(sql + ": a one-line error, not " + message, message.indexOf('\n') < 0);
            for (String p : parts) {
                assertTrue(sql + ": expected '" + p + "' in " + message, message.contains(p));
            }
        }
    }

    static void delete(Path p) throws IOException {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (var walk = Files.walk(p)) {
            for (Path x : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        }
    }
}
