package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.sql.SQLException;
import org.junit.Test;

/**
 * {@code ORDER BY … LIMIT n} over a pushed scan is Calcite's bounded top-n sort ({@link
 * VortexRules#LIMIT_SORT}), not a full sort under a limit; its rows, in order, are those of the
 * plain connection, which sorts every row and then cuts (Calcite's own full sort is the
 * reference). Ties, NULL ordering and offsets included.
 */
public class TopNTest extends WithConnections {
    /** The ordered rows of {@code sql} are the plain connection's; returns the push-down plan. */
    private static String checkOrdered(String sql) throws SQLException {
        assertEquals(sql, Sql.rows(plain, sql), Sql.rows(push, sql));
        return Sql.explain(push, sql);
    }

    @Test
    public void topNOverAPushedFilterIsABoundedSort() throws SQLException {
        String plan = checkOrdered("SELECT ts, price FROM trades WHERE sym = 'AAPL' ORDER BY ts DESC LIMIT 10");
        assertTrue(plan, plan.contains("EnumerableLimitSort") && plan.contains("fetch=[10]"));
        assertTrue(plan, plan.contains("VortexTableScan") && plan.contains("filter=[sym = 'AAPL']"));
        assertFalse(plan, plan.contains("EnumerableSort(") || plan.contains("EnumerableLimit("));
    }

    @Test
    public void tiesNullsAndOffsetsAreCalcites() throws SQLException {
        // The queries order by every column they return, so the reference's order is total.
        String[] sqls = {
            "SELECT sym, volume FROM trades ORDER BY sym DESC, volume LIMIT 25",
            "SELECT sym, ts FROM trades ORDER BY sym NULLS FIRST, ts LIMIT 7",
            "SELECT sym, ts FROM trades ORDER BY sym DESC NULLS LAST, ts DESC LIMIT 7 OFFSET 3",
            "SELECT s, id FROM types ORDER BY s NULLS FIRST, id LIMIT 12",
            "SELECT f64, id FROM types WHERE id < 5000 ORDER BY f64 DESC, id LIMIT 9",
            "SELECT ts_us, id FROM types ORDER BY ts_us, id DESC LIMIT 5 OFFSET 2",
            "SELECT sym, volume FROM trades WHERE sym = 'nope' ORDER BY volume LIMIT 3",
        };
        for (String sql : sqls) {
            String plan = checkOrdered(sql);
            assertTrue(sql + "\n" + plan, plan.contains("EnumerableLimitSort"));
        }
        // LIMIT 0 needs no scan at all.
        assertTrue(checkOrdered("SELECT price FROM trades WHERE volume > 900 ORDER BY price LIMIT 0")
                .contains("EnumerableValues(tuples=[[]])"));
        // Ordered by a column with ties only: the keys come in the reference's order...
        checkOrdered("SELECT sym FROM trades ORDER BY sym DESC NULLS FIRST LIMIT 40");
        // ...and tied rows are any of the tied rows: 30 distinct rows of the filter's answer.
        String tied = "SELECT ts, volume FROM trades WHERE sym = 'MSFT' ORDER BY sym LIMIT 30";
        java.util.List<java.util.List<Object>> got = Sql.rows(push, tied);
        java.util.List<java.util.List<Object>> all = Sql.rows(plain, "SELECT ts, volume FROM trades WHERE sym = 'MSFT'");
        assertTrue(all.size() > 30);
        assertEquals(30, new java.util.HashSet<>(got).size());
        assertTrue(all.containsAll(got));
    }
}
