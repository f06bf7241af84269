package io.vortex4j.calcite;

import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.jdbc.VortexDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * GROUP BY several columns and GROUP BY partition columns pushed into the scan: over folders of
 * 1, 10 and 100 files and Hive folders, on 1, 2 and 8 threads, the same answers as Calcite with
 * push-down off over the single file (or over the flat file with the partition columns as
 * expressions), and EXPLAIN shows the grouping in the VortexAggregateScan.
 */
public class MultiColumnGroupTest extends WithConnections {
    private static Path root;
    private static final int[] FILE_COUNTS = {1, 10, 100};
    private static final int[] THREADS = {1, 2, 8};

    @BeforeClass
    public static void writeFolders() throws Exception {
        root = Files.createTempDirectory("vortex4j-multigroup");
        for (int n : FILE_COUNTS) {
            Path dir = root.resolve("n" + n);
            DatasetTablesTest.split(TestData.dir().resolve("trades.vortex"), dir.resolve("trades"), n);
            DatasetTablesTest.split(TestData.dir().resolve("types.vortex"), dir.resolve("types"), n);
        }
        DatasetTablesTest.writeHive(root.resolve("hive").resolve("hive"));
    }

    @AfterClass
    public static void deleteFolders() throws Exception {
        DatasetTablesTest.delete(root);
    }

    private static Connection connect(Path dir, int threads) throws SQLException {
        Properties p = new Properties();
        p.setProperty("threads", Integer.toString(threads));
        return VortexDriver.open(dir, true, VortexDriver.DEFAULT_PLAN_CACHE, p);
    }

    /** Each query and the group EXPLAIN must show. */
    private static final String[][] FOLDER_QUERIES = {
        // Two dictionary columns (strings with NULL and non-ASCII values, and a high-cardinality one).
        {"SELECT s, s2, count(*), sum(qty), min(i64), max(d), avg(f64), count(bin) FROM types GROUP BY s, s2", "s, s2"},
        {"SELECT s2, s, count(*), sum(u32), max(u64) FROM types WHERE qty < 50 OR s IS NULL GROUP BY s2, s", "s2, s"},
        // A dictionary column with a BOOLEAN one: grouped row by row.
        {"SELECT s, b, count(*), sum(i64), min(qty), avg(amount) FROM types GROUP BY s, b", "s, b"},
        // Dictionary columns with integer and DATE ones (NULLs in each, negatives): grouped natively by values.
        {"SELECT sym, volume, count(*), sum(volume) FROM trades WHERE volume < 10 AND sym IS NOT NULL"
            + " GROUP BY sym, volume", "sym, volume"},
        {"SELECT d, s, count(*), sum(qty), min(i64) FROM types WHERE qty < 60 GROUP BY d, s", "d, s"},
        {"SELECT i8, s2, i16, u8, count(*), max(qty) FROM types GROUP BY i8, s2, i16, u8", "i8, s2, i16, u8"},
        {"SELECT qty, d, count(*), sum(i32) FROM types WHERE s IS NULL OR qty > 90 GROUP BY qty, d", "qty, d"},
        {"SELECT s, d, count(*), sum(amount) FROM types WHERE s IN ('日本', '😀', 'A', 'Ω') GROUP BY s, d", "s, d"},
        {"SELECT sym, volume, count(*), avg(price), max(ts) FROM trades WHERE sym IN ('AAPL', 'MSFT') AND volume < 50"
            + " GROUP BY sym, volume", "sym, volume"},
        {"SELECT s, s2, b, count(*) FROM types WHERE id > 100 GROUP BY s, s2, b", "s, s2, b"},
    };

    @Test
    public void severalColumnsGiveCalcitesAnswers() throws SQLException {
        for (String[] q : FOLDER_QUERIES) {
            String sql = q[0];
            List<List<Object>> expected = Answers.sorted(Sql.rows(plain, sql));
            assertTrue(sql + " is not vacuous", expected.size() > 1);
            assertPushed(push, sql, q[1]);
            Answers.assertClose(sql + " (single file)", expected, Answers.sorted(Sql.rows(push, sql)));
            for (int n : FILE_COUNTS) {
                for (int threads : THREADS) {
                    try (Connection c = connect(root.resolve("n" + n), threads)) {
                        assertPushed(c, sql, q[1]);
                        Answers.assertClose(sql + " (" + n + " files, " + threads + " threads)", expected,
                                Answers.sorted(Sql.rows(c, sql)));
                    }
                }
            }
        }
    }

    private static final String[][] HIVE_QUERIES = {
        {"SELECT d, sym, count(*), sum(volume), min(volume) FROM hive GROUP BY d, sym", "d, sym", "files=[18 of 18]"},
        {"SELECT c, count(*), max(ts) FROM hive WHERE d = DATE '2026-01-02' GROUP BY c", "c", "files=[6 of 18]"},
        {"SELECT d, v, c, count(*), sum(volume), max(volume), max(ts) FROM hive GROUP BY d, v, c", "d, v, c",
            "files=[18 of 18]"},
        {"SELECT v, sym, count(*), avg(volume) FROM hive WHERE sym IN ('AAPL', 'MSFT') AND d > DATE '2026-01-01'"
            + " GROUP BY v, sym", "v, sym", "files=[12 of 18]"},
        {"SELECT d, count(*) FROM hive WHERE c IS NULL GROUP BY d", "d", "files=[6 of 18]"},
    };

    @Test
    public void partitionColumnsGiveTheFlatFileAnswers() throws SQLException {
        for (String[] q : HIVE_QUERIES) {
            String sql = q[0];
            List<List<Object>> expected = Answers.sorted(Sql.rows(plain, DatasetTablesTest.flat(sql)));
            assertTrue(sql + " is not vacuous", expected.size() > 1);
            for (int threads : THREADS) {
                try (Connection c = connect(root.resolve("hive"), threads)) {
                    String plan = assertPushed(c, sql, q[1]);
                    assertTrue(sql + ": partition filter prunes files: " + plan, plan.contains(q[2]));
                    Answers.assertClose(sql + " (" + threads + " threads)", expected, Answers.sorted(Sql.rows(c, sql)));
                }
            }
        }
    }

    private static String assertPushed(Connection c, String sql, String group) throws SQLException {
        String plan = Sql.explain(c, sql);
        assertTrue(sql + " is pushed: " + plan, plan.contains("VortexAggregateScan")
                && plan.contains("group=[" + group + "]") && !plan.contains("EnumerableAggregate"));
        return plan;
    }
}
