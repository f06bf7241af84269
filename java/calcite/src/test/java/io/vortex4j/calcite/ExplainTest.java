package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * EXPLAIN shows what runs inside the Vortex scan (projection, filter, aggregates) and what stays
 * with Calcite; the answers of the plans checked here are compared with push-down disabled.
 */
public class ExplainTest extends WithConnections {
    /** The push-down plan of {@code sql}, after checking its answer against the plain one. */
    private static String plan(String sql) throws SQLException {
        assertEquals(sql, Sql.answer(plain, sql), Sql.answer(push, sql));
        return Sql.explain(push, sql);
    }

    private static void assertContains(String plan, String... parts) {
        for (String p : parts) {
            assertTrue("expected " + p + " in\n" + plan, plan.contains(p));
        }
    }

    private static void assertLacks(String plan, String... parts) {
        for (String p : parts) {
            assertFalse("did not expect " + p + " in\n" + plan, plan.contains(p));
        }
    }

    @Test
    public void countWithAPushedFilterIsOneAggregateScan() throws SQLException {
        String plan = plan("SELECT count(*) FROM trades WHERE sym = 'AAPL'");
        assertEquals("VortexAggregateScan(table=[[vortex, trades]], filter=[sym = 'AAPL'], aggregates=[[COUNT(*)]])",
                plan.trim());
    }

    @Test
    public void groupedAggregatesWithFilter() throws SQLException {
        String plan = plan("SELECT sym, count(*), sum(volume), min(ts), max(volume) FROM trades"
                + " WHERE sym IN ('AAPL', 'MSFT') AND volume > 10 GROUP BY sym");
        assertContains(plan, "VortexAggregateScan(table=[[vortex, trades]]", "filter=[(sym IN ('AAPL', 'MSFT') AND volume > 10)]",
                "group=[sym]", "COUNT(*)", "SUM(volume)", "MIN(ts)", "MAX(volume)");
        assertLacks(plan, "EnumerableAggregate", "VortexTableScan");
    }

    @Test
    public void averageIsSumAndCountInTheScanDividedByCalcite() throws SQLException {
        String plan = plan("SELECT sym, avg(volume), avg(price) FROM trades WHERE sym <> 'AAPL' GROUP BY sym");
        // volume and price are NOT NULL, so Calcite counts them with COUNT(*).
        assertContains(plan, "EnumerableCalc", "/(", "VortexAggregateScan", "filter=[sym <> 'AAPL']", "group=[sym]",
                "SUM(volume)", "SUM(price)", "COUNT(*)");
        assertLacks(plan, "EnumerableAggregate");
        String nullable = plan("SELECT avg(qty), avg(u32), avg(amount) FROM types WHERE s = 'A'");
        assertContains(nullable, "EnumerableCalc", "VortexAggregateScan", "filter=[s = 'A']", "COUNT(qty)",
                "COUNT(u32)", "COUNT(amount)");
        assertLacks(nullable, "EnumerableAggregate");
    }

    @Test
    public void projectionAndFilterInTheScan() throws SQLException {
        String plan = plan("SELECT price FROM trades WHERE volume > 100 AND sym IS NOT NULL");
        assertContains(plan, "VortexTableScan(table=[[vortex, trades]], fields=[[price]], "
                + "filter=[(volume > 100 AND sym IS NOT NULL)])");
        assertLacks(plan, "EnumerableCalc");
    }

    @Test
    public void untranslatableFiltersStayWithCalcite() throws SQLException {
        // Throws on some values (a non-numeric string): Calcite evaluates it row by row.
        String cast = Sql.explain(push, "SELECT ts FROM trades WHERE CAST(sym AS INTEGER) > 3 AND volume > 100");
        assertContains(cast, "EnumerableCalc", "CAST(", "VortexTableScan", "filter=[volume > 100]");

        // Only the translatable conjunct goes into the scan; the aggregate then stays with Calcite.
        String mixed = plan("SELECT count(*) FROM trades WHERE sym = 'AAPL'"
                + " AND OVERLAY(sym PLACING 'x' FROM 1 FOR 0) = 'xAAPL'");
        assertContains(mixed, "VortexTableScan", "filter=[sym = 'AAPL']", "OVERLAY(", "EnumerableAggregate");
        assertLacks(mixed, "VortexAggregateScan");

        // An OR with an untranslatable branch cannot be split.
        String or = plan("SELECT ts FROM trades WHERE sym = 'AAPL' OR volume > price");
        assertLacks(or, "filter=[");

        // Two columns compared with each other: not a one-column expression.
        String twoColumns = plan("SELECT ts FROM trades WHERE volume > price");
        assertLacks(twoColumns, "filter=[");
        assertLacks(plan("SELECT ts FROM trades WHERE UPPER(sym) = CAST(volume AS VARCHAR)"), "filter=[");
    }

    @Test
    public void expressionsOfAStringColumnGoIntoTheScan() throws SQLException {
        assertEquals("VortexTableScan(table=[[vortex, trades]], fields=[[ts]], filter=[UPPER(sym) = 'AAPL'])",
                plan("SELECT ts FROM trades WHERE UPPER(sym) = 'AAPL'").trim());
        assertEquals("VortexAggregateScan(table=[[vortex, trades]], filter=[sym LIKE 'A%'], aggregates=[[COUNT(*)]])",
                plan("SELECT count(*) FROM trades WHERE sym LIKE 'A%'").trim());
        assertContains(plan("SELECT count(*) FROM trades WHERE sym = 'AAPL' OR sym LIKE 'M%'"),
                "VortexAggregateScan", "sym = 'AAPL'", "sym LIKE 'M%'", " OR ");
        assertContains(plan("SELECT count(*) FROM trades WHERE CHAR_LENGTH(sym) = 3 AND volume BETWEEN 10 AND 20"),
                "VortexAggregateScan", "CHAR_LENGTH(sym) = 3", "volume >= 10");
        // A group key that is an expression of a dictionary column: one key per entry.
        assertContains(plan("SELECT SUBSTRING(sym FROM 1 FOR 1), sum(volume) FROM trades WHERE sym LIKE '%A%'"
                        + " GROUP BY SUBSTRING(sym FROM 1 FOR 1)"),
                "VortexAggregateScan", "filter=[sym LIKE '%A%']", "group=[SUBSTRING(sym, 1, 1)]", "SUM(volume)");
        assertLacks(plan("SELECT UPPER(sym), count(*) FROM trades GROUP BY UPPER(sym)"), "EnumerableAggregate");
    }

    @Test
    public void filtersThatWouldChangeAnswersAreNotPushed() throws SQLException {
        // BIGINT to DOUBLE loses precision above 2^53: Calcite compares doubles, so must Calcite.
        assertLacks(plan("SELECT id FROM types WHERE i64 = 9.007199254740992e15"), "filter=[");
        // UTF-16 and code point order differ at and above U+D800: Calcite's own comparison, per entry.
        assertContains(plan("SELECT id FROM types WHERE s > U&'\\E000'"), "filter=[s > ");
        assertLacks(plan("SELECT id FROM types WHERE s > U&'\\E000'"), "EnumerableCalc");
        assertContains(plan("SELECT id FROM types WHERE s = U&'\\E000'"), "filter=[s = ");
        assertContains(plan("SELECT id FROM types WHERE s > 'B'"), "filter=[s > 'B']");
        // Floats: Java's NaN and -0.0 semantics are spelled out for the reader's total order.
        assertContains(plan("SELECT id FROM types WHERE f64 > 1.5"), "filter=[(f64 > 1.5 AND f64 <= Infinity)]");
        assertContains(plan("SELECT id FROM types WHERE f64 = 0"), "filter=[f64 BETWEEN -0.0 AND 0.0]");
        // Sub-millisecond timestamps are seen by Calcite in milliseconds: an equality is a range.
        assertContains(plan("SELECT id FROM types WHERE ts_us = TIMESTAMP '2026-01-01 00:00:00.001'"),
                "filter=[ts_us BETWEEN 2026-01-01T00:00:00.001 AND 2026-01-01T00:00:00.001999]");
    }

    @Test
    public void aggregatesThatCannotBePushed() throws SQLException {
        // COUNT(DISTINCT x): Calcite groups by x first, and that grouping is pushed.
        String distinct = plan("SELECT count(DISTINCT sym) FROM trades WHERE volume > 10");
        assertContains(distinct, "EnumerableAggregate", "VortexAggregateScan", "filter=[volume > 10]", "group=[sym]");
        // Several group columns are pushed.
        assertContains(plan("SELECT s, b, count(*) FROM types WHERE qty > 10 GROUP BY s, b"), "VortexAggregateScan",
                "filter=[qty > 10], group=[s, b], aggregates=[[COUNT(*)]]");
        // String MIN/MAX (UTF-16 order), float MIN/MAX (NaN), REAL sums, sub-millisecond group keys (also
        // beside another) and an expression beside another group key stay with Calcite, over a scan that
        // still takes the filter.
        for (String sql : new String[] {
            "SELECT min(sym) FROM trades WHERE volume > 10",
            "SELECT max(price) FROM trades WHERE volume > 10",
            "SELECT sum(f32) FROM types WHERE qty > 10",
            "SELECT ts_us, count(*) FROM types WHERE qty > 10 GROUP BY ts_us",
            "SELECT s, ts_us, count(*) FROM types WHERE qty > 10 GROUP BY s, ts_us",
            "SELECT UPPER(s), b, count(*) FROM types WHERE qty > 10 GROUP BY UPPER(s), b",
        }) {
            String plan = plan(sql);
            assertLacks(plan, "VortexAggregateScan");
            assertContains(plan, "VortexTableScan", "filter=[");
        }
    }

    @Test
    public void withoutPushdownCalciteDoesEverything() throws SQLException {
        String plan = Sql.explain(plain, "SELECT sym, count(*) FROM trades WHERE sym = 'AAPL' GROUP BY sym");
        assertContains(plan, "EnumerableAggregate", "EnumerableTableScan(table=[[vortex, trades]])", "=(");
        assertLacks(plan, "Vortex");
    }

    @Test
    public void countOfAWholeTableUsesTheRowCount() throws SQLException {
        assertEquals("VortexAggregateScan(table=[[vortex, trades]], aggregates=[[COUNT(*)]])",
                plan("SELECT count(*) FROM trades").trim());
    }
}
