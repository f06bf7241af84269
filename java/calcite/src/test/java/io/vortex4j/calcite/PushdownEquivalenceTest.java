package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.compute.PredicateEvaluator;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The SQL workload: every query runs with push-down and without (Calcite reading every row and
 * evaluating everything itself), and the answers must be identical (as multisets of rows, floats
 * compared bit for bit). Filters cover every column type with each comparison, literals on both
 * sides, IN / NOT IN (also with NULL), BETWEEN, IS [NOT] NULL, NOT and OR; aggregates cover
 * COUNT, SUM, MIN, MAX and AVG with and without GROUP BY, over filtered and unfiltered scans.
 */
public class PushdownEquivalenceTest extends WithConnections {
    /** Per column of {@code types}: literals to compare it with. */
    static final Map<String, String[]> LITERALS = new LinkedHashMap<>();

    static {
        LITERALS.put("b", new String[] {"TRUE", "FALSE"});
        LITERALS.put("i8", new String[] {"1", "-128", "127", "300", "2.5", "1e0"});
        LITERALS.put("i16", new String[] {"300", "-32768", "40000", "-0.5", "3e2"});
        LITERALS.put("i32", new String[] {"70000", "-2147483648", "2147483647", "3000000000", "0.5"});
        LITERALS.put("i64", new String[] {"1", "9007199254740992", "9007199254740993", "-9223372036854775808",
            "9223372036854775807", "2.5", "9.007199254740992e15"});
        LITERALS.put("u8", new String[] {"127", "128", "255", "256", "-1", "127.5"});
        LITERALS.put("u16", new String[] {"32768", "65535", "65536", "1.5"});
        LITERALS.put("u32", new String[] {"2147483647", "2147483648", "4294967295", "4294967296", "1.5"});
        LITERALS.put("u64", new String[] {"5", "9223372036854775807", "9223372036854775808",
            "18446744073709551615", "18446744073709551616", "-1", "4.5"});
        LITERALS.put("qty", new String[] {"0", "50", "50.5"});
        LITERALS.put("f32", new String[] {"0", "-0.0", "0.1", "1.5", "100.5", "3e38", "CAST('NaN' AS REAL)",
            "CAST('Infinity' AS REAL)", "2"});
        LITERALS.put("f64", new String[] {"0", "0.1", "0.30000000000000004", "-1.5", "1e300", "CAST('NaN' AS DOUBLE)",
            "CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS DOUBLE)", "100.5"});
        LITERALS.put("s", new String[] {"''", "'A'", "'A '", "'AAPL'", "'B'", "'日本'", "'😀'", "U&'\\E000'", "'zz'", "'AA'"});
        LITERALS.put("s2", new String[] {"''", "'a'", "'abc'", "'é'"});
        LITERALS.put("bin", new String[] {"X''", "X'00'", "X'7F'", "X'80'", "X'FF'"});
        LITERALS.put("amount", new String[] {"0", "1.5", "1.500", "-3.25", "999999.999", "1.5e0", "0.0001"});
        LITERALS.put("d", new String[] {"DATE '1970-01-01'", "DATE '2000-02-29'", "DATE '1969-12-31'"});
        LITERALS.put("t_s", new String[] {"TIME '12:00:00'", "TIME '00:00:01'", "TIME '12:00:00.500'"});
        LITERALS.put("t_ms", new String[] {"TIME '12:00:00'", "TIME '06:30:00.250'"});
        LITERALS.put("t_us", new String[] {"TIME '12:00:00'", "TIME '12:00:00.001'", "TIME '11:59:59.999'",
            "TIME '12:00:00.002'"});
        String[] timestamps = {"TIMESTAMP '2026-01-01 00:00:00'", "TIMESTAMP '2026-01-01 00:00:00.001'",
            "TIMESTAMP '2025-12-31 23:59:59.999'", "TIMESTAMP '2026-01-01 00:00:00.002'",
            "TIMESTAMP '2026-01-01 00:00:03'", "TIMESTAMP '1970-01-01 00:00:00'"};
        for (String c : new String[] {"ts_s", "ts_ms", "ts_us", "ts_ns", "ts_tz"}) {
            LITERALS.put(c, timestamps);
        }
    }

    /** Filters over {@code trades}: comparisons, sets, ranges, nulls, NOT/OR, expressions, LIKE, large IN lists. */
    static final String[] TRADES_FILTERS = {
        "sym = 'AAPL'", "sym <> 'AAPL'", "sym < 'C'", "sym <= 'GOOG'", "sym > 'TSLA'", "sym >= 'V'",
        "'MSFT' = sym", "'C' > sym", "sym IN ('AAPL', 'MSFT', 'NVDA')", "sym NOT IN ('AAPL', 'MSFT')",
        "sym IN ('AAPL', NULL)", "sym NOT IN ('AAPL', NULL)", "sym IN ('nope')", "sym IS NULL", "sym IS NOT NULL",
        "sym BETWEEN 'A' AND 'B'", "sym NOT BETWEEN 'B' AND 'T'", "NOT (sym = 'AAPL' OR volume < 10)",
        "price BETWEEN 100 AND 200", "price NOT BETWEEN 100 AND 200", "100.5 < price", "price = 250.25",
        "volume > 500 OR sym = 'TSLA'", "volume >= 1000 AND sym IN ('AAPL', 'AMZN')",
        "ts >= 1767225600000000 + 1000000 AND ts < 1767225600000000 + 50000000",
        "(sym = 'AAPL' AND volume > 100) OR (sym = 'MSFT' AND price < 300) OR sym IS NULL",
        "sym = 'AAPL' AND UPPER(sym) = 'AAPL'", "sym LIKE 'A%'", "sym LIKE 'A%' OR volume > 900",
        "CHAR_LENGTH(sym) = 3 AND volume BETWEEN 10 AND 20",
        // More than 20 values: plain Calcite would make the list a join; jdbc:vortex: keeps it an IN.
        "sym IN ('A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9', 'A10', 'A11', 'A12', 'A13', 'A14',"
            + " 'A15', 'A16', 'A17', 'A18', 'A19', 'AAPL', 'MSFT', 'V')",
        "sym NOT IN ('A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9', 'A10', 'A11', 'A12', 'A13', 'A14',"
            + " 'A15', 'A16', 'A17', 'A18', 'A19', 'AAPL', 'MSFT', 'V')",
    };

    private static final String[] OPS = {"=", "<>", "<", "<=", ">", ">="};

    /**
     * Runs {@code sql} both ways and returns the push-down plan. The answers must be identical and
     * both sides must succeed: a query of the workload that fails on either side fails the test
     * (queries that must fail are checked by {@link #checkFailsAlike}).
     */
    static String check(String sql) throws SQLException {
        List<String> expected = answerOrFail(plain, "without push-down", sql);
        List<String> actual = answerOrFail(push, "with push-down", sql);
        assertEquals(sql, expected, actual);
        return Sql.explain(push, sql);
    }

    /** Checks like {@link #check} and returns the answer, a sorted multiset of rows. */
    static List<String> answerChecked(String sql) throws SQLException {
        List<String> expected = answerOrFail(plain, "without push-down", sql);
        assertEquals(sql, expected, answerOrFail(push, "with push-down", sql));
        return expected;
    }

    private static List<String> answerOrFail(Connection c, String side, String sql) {
        try {
            return Sql.answer(c, sql);
        } catch (SQLException | RuntimeException e) {
            throw new AssertionError(sql + " fails " + side + ": " + firstLine(e.getMessage()), e);
        }
    }

    /** {@code sql} fails both ways, each error naming {@code problem}. */
    static void checkFailsAlike(String sql, String problem) {
        for (Connection c : new Connection[] {plain, push}) {
            try {
                Sql.answer(c, sql);
                fail(sql + " should fail (" + problem + ") " + (c == push ? "with" : "without") + " push-down");
            } catch (SQLException | RuntimeException e) {
                String all = e + " " + rootCause(e);
                assertTrue(sql + ": expected '" + problem + "' in " + all, all.contains(problem));
            }
        }
    }

    private static boolean pushedFilter(String plan) {
        return plan.contains("VortexTableScan") && plan.contains("filter=[")
                || plan.contains("VortexAggregateScan") && plan.contains("filter=[");
    }

    /** Checks queries ({@link #check}) and counts those whose plan shows the work pushed. */
    private static final class PushTally {
        final java.util.function.Predicate<String> pushedIn;
        int queries;
        int pushed;
        final List<String> notPushed = new ArrayList<>();

        /** {@code pushedIn} tells from a push-down plan whether the work went into the scan. */
        PushTally(java.util.function.Predicate<String> pushedIn) {
            this.pushedIn = pushedIn;
        }

        /** Checks {@code sql} ({@link PushdownEquivalenceTest#check}), tallies its plan, returns its answer. */
        List<String> check(String sql) throws SQLException {
            List<String> answer = answerChecked(sql);
            queries++;
            if (pushedIn.test(Sql.explain(push, sql))) {
                pushed++;
            } else {
                notPushed.add(sql);
            }
            return answer;
        }

        /** Reports the counts as {@code what} and asserts at least {@code tenths}/10 were pushed. */
        void assertPushed(String what, String noun, int tenths) {
            Report.note(what + ": " + pushed + " of " + queries + " pushed; not pushed: " + notPushed);
            assertTrue("only " + pushed + " of " + queries + noun + " pushed", pushed * 10 >= queries * tenths);
        }
    }

    @Test
    public void comparisonsOnEveryType() throws SQLException {
        PushTally tally = new PushTally(PushdownEquivalenceTest::pushedFilter);
        for (Map.Entry<String, String[]> e : LITERALS.entrySet()) {
            String c = e.getKey();
            for (String lit : e.getValue()) {
                List<String> sqls = new ArrayList<>();
                for (String op : OPS) {
                    sqls.add("SELECT id FROM types WHERE " + c + " " + op + " " + lit);
                }
                sqls.add("SELECT id FROM types WHERE " + lit + " < " + c);
                sqls.add("SELECT id FROM types WHERE " + lit + " = " + c);
                sqls.add("SELECT id FROM types WHERE NOT (" + c + " >= " + lit + ")");
                sqls.add("SELECT id FROM types WHERE NOT (" + c + " = " + lit + ")");
                for (String sql : sqls) {
                    tally.check(sql);
                }
            }
        }
        tally.assertPushed("comparisons", " comparisons were", 8);
    }

    @Test
    public void setsRangesAndNulls() throws SQLException {
        PushTally tally = new PushTally(PushdownEquivalenceTest::pushedFilter);
        for (Map.Entry<String, String[]> e : LITERALS.entrySet()) {
            String c = e.getKey();
            String[] lits = e.getValue();
            String a = lits[0];
            String b = lits.length > 1 ? lits[1] : lits[0];
            String z = lits[lits.length - 1];
            String[] sqls = {
                "SELECT id FROM types WHERE " + c + " IN (" + a + ", " + b + ")",
                "SELECT id FROM types WHERE " + c + " NOT IN (" + a + ", " + b + ")",
                "SELECT id FROM types WHERE " + c + " IN (" + a + ", NULL)",
                "SELECT id FROM types WHERE " + c + " NOT IN (" + a + ", NULL)",
                "SELECT id FROM types WHERE " + c + " BETWEEN " + a + " AND " + z,
                "SELECT id FROM types WHERE " + c + " NOT BETWEEN " + a + " AND " + z,
                "SELECT id FROM types WHERE " + c + " BETWEEN SYMMETRIC " + z + " AND " + a,
                "SELECT id FROM types WHERE " + c + " IS NULL",
                "SELECT id FROM types WHERE " + c + " IS NOT NULL",
                "SELECT id FROM types WHERE " + c + " = " + a + " OR " + c + " IS NULL",
                "SELECT id FROM types WHERE " + c + " <> " + a + " OR " + c + " IS NULL",
                "SELECT id FROM types WHERE NOT (" + c + " IN (" + a + ", " + b + ") OR " + c + " IS NULL)",
                "SELECT id FROM types WHERE (" + c + " = " + a + " OR " + c + " = " + z + ") AND id < 5000",
                "SELECT id FROM types WHERE " + c + " > " + a + " OR id = 7 OR " + c + " < " + z,
            };
            for (String sql : sqls) {
                tally.check(sql);
            }
        }
        tally.assertPushed("sets/ranges/nulls", " were", 7);
    }

    @Test
    public void tradesFilters() throws SQLException {
        String[] filters = TRADES_FILTERS;
        PushTally tally = new PushTally(PushdownEquivalenceTest::pushedFilter);
        long total = ((Number) Sql.scalar(plain, "SELECT count(*) FROM trades")).longValue();
        int selective = 0;
        for (String f : filters) {
            List<String> rows = tally.check("SELECT ts, sym, price, volume FROM trades WHERE " + f);
            // The count agrees with the rows both ways; the group counts add up to it.
            List<String> count = tally.check("SELECT count(*) FROM trades WHERE " + f);
            assertEquals(f, List.of("[" + rows.size() + "]"), count);
            String grouped = "SELECT sym, count(*), sum(volume), min(volume), max(volume), avg(volume), sum(price),"
                    + " avg(price), min(ts), max(ts), count(sym) FROM trades WHERE " + f + " GROUP BY sym";
            tally.check(grouped);
            long groupTotal = 0;
            for (List<Object> row : Sql.rows(push, grouped)) {
                groupTotal += ((Number) row.get(1)).longValue();
            }
            assertEquals(f, rows.size(), groupTotal);
            tally.check("SELECT count(*), sum(volume), avg(volume), min(price), max(price), min(sym) FROM trades WHERE "
                    + f);
            if (rows.size() > 0 && rows.size() < total) {
                selective++;
            }
        }
        // The workload is not vacuous: nearly every filter keeps some rows and drops others.
        assertTrue(selective + " of " + filters.length + " filters are selective", selective >= filters.length - 4);
        tally.assertPushed("trades filters", " trades queries were", 9);
    }

    @Test
    public void aggregatesOnEveryType() throws SQLException {
        String[] summable = {"qty", "u16", "u32", "u64", "amount", "f64"};
        String[] ordered = {"b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "qty", "bin", "amount", "d",
            "t_s", "t_ms", "t_us", "ts_s", "ts_ms", "ts_us", "ts_ns", "ts_tz", "s", "f32", "f64"};
        String[] groups = {"", "s", "b", "i8", "u8", "bin", "d", "ts_ms", "ts_us", "f32", "f64", "amount", "s2"};
        String[] wheres = {"", " WHERE s IN ('A', 'AAPL', 'B')", " WHERE qty < 50 OR s IS NULL"};
        PushTally tally = new PushTally(plan -> plan.contains("VortexAggregateScan"));
        for (String g : groups) {
            for (String w : wheres) {
                StringBuilder select = new StringBuilder("count(*)");
                for (String c : summable) {
                    select.append(", sum(").append(c).append("), avg(").append(c).append(")");
                }
                String sel = (g.isEmpty() ? "" : g + ", ") + select;
                String tail = w + (g.isEmpty() ? "" : " GROUP BY " + g);
                List<String> sqls = new ArrayList<>();
                sqls.add("SELECT " + sel + " FROM types" + tail);
                StringBuilder mm = new StringBuilder("count(*)");
                for (String c : ordered) {
                    mm.append(", min(").append(c).append("), max(").append(c).append("), count(").append(c).append(")");
                }
                sqls.add("SELECT " + (g.isEmpty() ? "" : g + ", ") + mm + " FROM types" + tail);
                for (String c : ordered) {
                    sqls.add("SELECT " + (g.isEmpty() ? "" : g + ", ") + "min(" + c + "), max(" + c + "), count(" + c
                            + ") FROM types" + tail);
                }
                if (!g.isEmpty()) {
                    sqls.add("SELECT DISTINCT " + g + " FROM types" + w);
                    sqls.add("SELECT " + g + ", count(*) FROM types" + tail + " HAVING count(*) > 100");
                }
                for (String sql : sqls) {
                    tally.check(sql);
                }
            }
        }
        tally.assertPushed("aggregates", " aggregates were", 5);
    }

    @Test
    public void projectionsAndLimits() throws SQLException {
        check("SELECT * FROM types");
        check("SELECT s, s, id FROM types WHERE id < 100");
        check("SELECT id + 1, UPPER(s), bin FROM types WHERE b");
        check("SELECT id FROM types WHERE NOT b");
        check("SELECT id FROM types WHERE b IS TRUE");
        check("SELECT id FROM types WHERE b IS NOT FALSE");
        check("SELECT 1 FROM types WHERE id > 8990");
        check("SELECT sym FROM trades WHERE volume > 2000");
        check("SELECT count(*) FROM trades");
        check("SELECT count(*) FROM types");
        check("SELECT count(*), count(s), count(bin) FROM types");
        check("SELECT count(DISTINCT sym) FROM trades WHERE price > 100");
        check("SELECT sym, count(*) FROM trades WHERE sym IN ('AAPL', 'MSFT') GROUP BY sym ORDER BY sym");
        // LIMIT: the first rows in file order, the same either way.
        assertEquals(Sql.rows(plain, "SELECT ts, sym FROM trades WHERE sym = 'AAPL' LIMIT 5"),
                Sql.rows(push, "SELECT ts, sym FROM trades WHERE sym = 'AAPL' LIMIT 5"));
        check("SELECT t.sym, t.volume, u.volume FROM trades t JOIN trades u ON t.ts = u.ts "
                + "WHERE t.sym = 'V' AND u.volume > 100");
        check("SELECT s, (SELECT count(*) FROM trades WHERE sym = types.s) FROM types WHERE id < 20");
    }

    @Test
    public void dictionaryFilterSwitchGivesSameAnswers() throws SQLException {
        String[] sqls = {
            "SELECT count(*) FROM trades WHERE sym = 'MSFT'",
            "SELECT sym, sum(volume) FROM trades WHERE sym IN ('AAPL', 'V', 'SHOP') GROUP BY sym",
            "SELECT ts FROM trades WHERE sym > 'T' OR sym IS NULL",
            "SELECT id FROM types WHERE s NOT IN ('A', 'B') AND s2 <> 'a'",
        };
        List<List<String>> on = new ArrayList<>();
        for (String sql : sqls) {
            on.add(Sql.answer(push, sql));
        }
        boolean before = PredicateEvaluator.isDictFilterEnabled();
        PredicateEvaluator.setDictFilterEnabled(false);
        try {
            for (int i = 0; i < sqls.length; i++) {
                assertEquals(sqls[i], on.get(i), Sql.answer(push, sqls[i]));
                assertEquals(sqls[i], Sql.answer(plain, sqls[i]), on.get(i));
            }
        } finally {
            PredicateEvaluator.setDictFilterEnabled(before);
        }
    }

    @Test
    public void sumsAreWidenedNotWrapped() throws SQLException {
        // SUM of SMALLINT (u8 here) is BIGINT, of BIGINT DECIMAL(38, 0): exact both ways.
        check("SELECT sum(u8), sum(i16), sum(i32), sum(i64), sum(u32), sum(u64) FROM types");
        check("SELECT sum(CAST(u8 AS BIGINT)), sum(CAST(i32 AS DECIMAL(19, 0))) FROM types");
    }

    static String firstLine(String s) {
        int i = s == null ? -1 : s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
