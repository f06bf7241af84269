package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code ORDER BY … LIMIT n [OFFSET m]} over a pushed scan runs inside the scan ({@link
 * VortexTopNScan}, rule {@link VortexRules#TOP_N}); its answer is checked against Calcite's own
 * full sort over the plain connection (push-down off), the same query without its LIMIT cut to
 * the window. Where keys tie, SQL lets either of the tied rows come, so the check is: the sort
 * keys of the window exactly in the reference's order, and every row one of the reference's rows
 * with its keys (as a multiset: a row with unique keys must be exactly the reference's row).
 */
public class TopNTest extends WithConnections {
    private static Path root;
    /** Folders of 1 and 10 files holding trades and types, each at threads 1 and 2. */
    private static final List<Connection> datasets = new ArrayList<>();
    private static final List<String> datasetNames = new ArrayList<>();

    @BeforeClass
    public static void writeFolders() throws Exception {
        root = Files.createTempDirectory("vortex4j-topn");
        for (int n : new int[] {1, 10}) {
            Path dir = root.resolve("n" + n);
            DatasetTablesTest.split(TestData.dir().resolve("trades.vortex"), dir.resolve("trades"), n);
            DatasetTablesTest.split(TestData.dir().resolve("types.vortex"), dir.resolve("types"), n);
            for (int threads : new int[] {1, 2}) {
                datasets.add(DriverManager.getConnection("jdbc:vortex:" + dir + ";threads=" + threads));
                datasetNames.add(n + " files, threads=" + threads);
            }
        }
    }

    @AfterClass
    public static void closeFolders() throws Exception {
        for (Connection c : datasets) {
            c.close();
        }
        DatasetTablesTest.delete(root);
    }

    /**
     * Checks {@code sql} (ordered, without LIMIT; its first {@code keys} columns are its sort keys
     * in order) with {@code LIMIT limit OFFSET offset} on {@code tested} against the plain
     * connection's full answer; asserts the top-n was pushed.
     */
    private static void check(Connection tested, String sql, int keys, long limit, long offset) throws SQLException {
        check(tested, sql, sql, keys, limit, offset);
    }

    /**
     * {@link #check(Connection, String, int, long, long)} with the reference answer from {@code
     * referenceSql}: the same rows, ordered by the same keys and then more keys.
     */
    private static void check(Connection tested, String sql, String referenceSql, int keys, long limit, long offset)
            throws SQLException {
        String limited = sql + " LIMIT " + limit + (offset > 0 ? " OFFSET " + offset : "");
        String plan = Sql.explain(tested, limited);
        assertTrue(limited + "\n" + plan, plan.contains("VortexTopNScan") && plan.contains("topN=["));
        assertFalse(limited + "\n" + plan, plan.contains("Sort"));
        List<List<Object>> full = reference(referenceSql);
        List<List<Object>> expected = full.subList((int) Math.min(offset, full.size()),
                (int) Math.min(offset + limit, full.size()));
        assertWindow(limited, full, expected, Sql.rows(tested, limited), keys);
    }

    private static final Map<String, List<List<Object>>> references = new HashMap<>();

    /** The plain connection's full answer to {@code sql}, computed once per query. */
    private static List<List<Object>> reference(String sql) throws SQLException {
        List<List<Object>> full = references.get(sql);
        if (full == null) {
            full = Sql.rows(plain, sql);
            references.put(sql, full);
        }
        return full;
    }

    /** {@code got} has {@code expected}'s keys in order, each row one of {@code full}'s rows with its keys. */
    static void assertWindow(String what, List<List<Object>> full, List<List<Object>> expected,
            List<List<Object>> got, int keys) {
        assertEquals(what + ": sort keys", keysOf(expected, keys), keysOf(got, keys));
        Map<List<Object>, Integer> available = new HashMap<>();
        for (List<Object> row : full) {
            available.merge(row, 1, Integer::sum);
        }
        for (int i = 0; i < got.size(); i++) {
            Integer left = available.get(got.get(i));
            if (left == null || left == 0) {
                fail(what + ": row " + i + " " + got.get(i) + " is not among the reference's rows (or comes too often);"
                        + " the reference's row there is " + expected.get(i));
            }
            available.put(got.get(i), left - 1);
        }
    }

    private static List<List<Object>> keysOf(List<List<Object>> rows, int keys) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            out.add(new ArrayList<>(row.subList(0, keys)));
        }
        return out;
    }

    /** Every sortable type of {@code types}, in both directions, nulls first and last. */
    @Test
    public void everyTypeDirectionAndNullOrder() throws SQLException {
        String[] columns = {"b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "qty", "f32", "f64", "s", "s2",
            "bin", "amount", "d", "t_s", "t_ms", "t_us", "ts_s", "ts_ms", "ts_us", "ts_ns", "ts_tz"};
        String[] orders = {"", " DESC", " NULLS FIRST", " DESC NULLS LAST"};
        // Rows of all three chunks, ~60 of them null in each column: a window of 80 crosses the nulls.
        String where = " WHERE id < 200 OR id BETWEEN 4000 AND 4200 OR id > 8800";
        for (String c : columns) {
            for (String order : orders) {
                String sql = "SELECT " + c + ", id FROM types" + where + " ORDER BY " + c + order;
                check(push, sql, floatReference(c, sql), 1, 80, 0);
            }
            // Every row, a window from the middle, the id breaking ties: one exact answer.
            String other = c.equals("s") ? "qty" : "s";
            check(push, "SELECT " + c + ", id, " + other + " FROM types ORDER BY " + c + " DESC, id", 2, 25, 4000);
        }
    }

    /**
     * The reference for {@code sql}, ordered by one REAL/DOUBLE column {@code c}: Calcite's own
     * one-key sort compares numbers as BigDecimal and fails on NaN and infinities ("Infinite or
     * NaN"); its sort by several keys compares them with {@code Double.compareTo}, the order the
     * pushed top-n gives. So the reference adds {@code id} as a second key.
     */
    private static String floatReference(String c, String sql) {
        return c.startsWith("f") ? sql + ", id" : sql;
    }

    /** Calcite's own one-key sort fails on NaN (see {@link #floatReference}); the pushed top-n orders it. */
    @Test
    public void nanAndInfinityInOneKey() throws SQLException {
        String sql = "SELECT f64, id FROM types ORDER BY f64 DESC";
        try {
            Sql.rows(plain, sql + " LIMIT 5");
            fail("Calcite sorted NaN by one key: the pushed top-n's documented difference is gone");
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("NaN"));
        }
        check(push, sql, floatReference("f64", sql), 1, 30, 0);
    }

    @Test
    public void theBenchmarkQueryIsPushedAndExplained() throws SQLException {
        String sql = "SELECT ts, price FROM trades WHERE sym = 'NVDA' ORDER BY ts DESC";
        check(push, sql, 1, 10, 0);
        String plan = Sql.explain(push, sql + " LIMIT 10");
        assertTrue(plan, plan.contains("VortexTopNScan(table=[[vortex, trades]], fields=[[ts, price]],"
                + " filter=[sym = 'NVDA'], topN=[ts DESC, 10])"));
        assertTrue(Sql.explain(push, sql + ", price NULLS FIRST LIMIT 5 OFFSET 3")
                .contains("topN=[ts DESC, price NULLS FIRST, 5 OFFSET 3]"));
    }

    @Test
    public void severalKeysTiesOffsetsAndSizes() throws SQLException {
        String[][] cases = {
            {"SELECT sym, volume, ts FROM trades ORDER BY sym DESC, volume", "2"},
            {"SELECT sym, ts, price FROM trades WHERE volume < 100 ORDER BY sym NULLS FIRST, ts", "2"},
            {"SELECT sym, ts FROM trades WHERE volume > 600 ORDER BY sym DESC NULLS LAST, ts DESC", "2"},
            {"SELECT volume, price, sym FROM trades WHERE price BETWEEN 100 AND 101 ORDER BY volume DESC, price", "2"},
            {"SELECT s, b, i8, id FROM types ORDER BY s NULLS FIRST, b DESC, i8", "3"},
            {"SELECT sym FROM trades ORDER BY sym DESC NULLS FIRST", "1"}, // one column: scalar rows, ties only
            {"SELECT ts, volume FROM trades WHERE sym = 'MSFT' ORDER BY ts", "1"},
            {"SELECT volume, ts FROM trades WHERE sym = 'nope' ORDER BY volume", "1"}, // no row
        };
        long[][] windows = {{10, 0}, {40, 0}, {7, 3}, {100, 2500}, {1, 0}};
        for (String[] c : cases) {
            for (long[] w : windows) {
                check(push, c[0], Integer.parseInt(c[1]), w[0], w[1]);
            }
        }
        // More rows asked for than there are, with and without an offset beyond them.
        String small = "SELECT ts, price FROM trades WHERE sym = 'AAPL' AND volume > 9900 ORDER BY ts DESC, price";
        assertTrue(reference(small).size() < 500);
        check(push, small, 2, 1_000_000, 0);
        check(push, small, 2, 10, 100_000);
    }

    @Test
    public void limitZeroReadsNothing() throws SQLException {
        String sql = "SELECT price FROM trades WHERE volume > 900 ORDER BY price LIMIT 0";
        assertEquals(List.of(), Sql.rows(push, sql));
        assertTrue(Sql.explain(push, sql).contains("EnumerableValues(tuples=[[]])"));
    }

    /** Sorting by an expression, or above a filter that stays with Calcite, is Calcite's sort. */
    @Test
    public void whatIsNotPushedIsCalcites() throws SQLException {
        String[] sqls = {
            "SELECT price * 2 AS p, ts FROM trades ORDER BY p DESC, ts LIMIT 5",
            "SELECT ts, price FROM trades WHERE MOD(volume, 7) = 3 ORDER BY ts DESC LIMIT 5",
        };
        for (String sql : sqls) {
            assertEquals(sql, Sql.rows(plain, sql), Sql.rows(push, sql));
            assertFalse(sql, Sql.explain(push, sql).contains("VortexTopNScan"));
        }
    }

    /** {@code LIMIT ?} and {@code OFFSET ?}: pushed, bound per execution of the cached plan. */
    @Test
    public void parametersInLimitAndOffset() throws SQLException {
        String sql = "SELECT ts, price FROM trades WHERE sym = ? ORDER BY ts DESC, price";
        try (PreparedStatement ps = push.prepareStatement(sql + " LIMIT ? OFFSET ?")) {
            for (Object[] p : new Object[][] {{"NVDA", 10, 0}, {"AAPL", 3, 5}, {"MSFT", 0, 0}, {"NVDA", 25, 40}}) {
                ps.setString(1, (String) p[0]);
                ps.setInt(2, (Integer) p[1]);
                ps.setInt(3, (Integer) p[2]);
                String literal = sql.replace("?", "'" + p[0] + "'");
                List<List<Object>> full = reference(literal);
                int from = Math.min((Integer) p[2], full.size());
                int to = Math.min(from + (Integer) p[1], full.size());
                List<List<Object>> got = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        got.add(List.of(Sql.canonical(rs.getObject(1)), Sql.canonical(rs.getObject(2))));
                    }
                }
                assertWindow(literal + " " + p[1] + "/" + p[2], full, full.subList(from, to), got, 2);
            }
        }
        String plan = Sql.explain(push, "SELECT ts FROM trades ORDER BY ts LIMIT ? OFFSET ?");
        assertTrue(plan, plan.contains("topN=[ts, ?0 OFFSET ?1]"));
    }

    /** Folders of 1 and 10 files (one split per file), at threads 1 and 2: the single file's answers. */
    @Test
    public void datasetsAndThreads() throws SQLException {
        String[][] cases = {
            {"SELECT ts, price FROM trades WHERE sym = 'NVDA' ORDER BY ts DESC", "1"},
            {"SELECT sym, volume, ts FROM trades ORDER BY sym NULLS FIRST, volume DESC", "2"},
            {"SELECT f64, id FROM types ORDER BY f64 DESC, id", "2"},
            {"SELECT s2, id FROM types WHERE qty < 30 ORDER BY s2 NULLS FIRST, id", "2"},
            {"SELECT u64, amount, id FROM types ORDER BY u64, amount DESC", "2"},
        };
        for (int k = 0; k < datasets.size(); k++) {
            for (String[] c : cases) {
                for (long[] w : new long[][] {{15, 0}, {30, 500}}) {
                    try {
                        check(datasets.get(k), c[0], Integer.parseInt(c[1]), w[0], w[1]);
                    } catch (AssertionError e) {
                        throw new AssertionError(datasetNames.get(k) + ": " + e.getMessage(), e);
                    }
                }
            }
        }
    }
}
