package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.Test;

/**
 * IN lists of thousands of values: pushed into the scan as one IN predicate, and, where Calcite
 * evaluates them (push-down off, or beside what cannot be pushed), evaluated with a hash set
 * instead of generated code that Janino cannot compile; answers identical either way.
 */
public class LargeInListTest extends WithConnections {
    /** {@code n} string literals: the trades symbols present and many absent ones, with NULL if asked. */
    private static String strings(int n, boolean withNull) {
        return "'AAPL', 'MSFT', 'V', 'NVDA', " + list(n - 4, i -> "'X" + i + "'", withNull);
    }

    /** {@code n} integer literals, every seventh volume. */
    private static String integers(int n, boolean withNull) {
        return list(n, i -> String.valueOf(i * 7L), withNull);
    }

    /** {@code n} dates, nine days apart from 1990-01-01. */
    private static String dates(int n) {
        return list(n, i -> "DATE '" + java.time.LocalDate.of(1990, 1, 1).plusDays(i * 9L) + "'", false);
    }

    private static String list(int n, java.util.function.IntFunction<String> literal, boolean withNull) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append(literal.apply(i));
        }
        return sb.append(withNull ? ", NULL" : "").toString();
    }

    @Test
    public void tenThousandLiteralsArePushedAndMatchCalcite() throws SQLException {
        String[] sqls = {
            "SELECT count(*) FROM trades WHERE sym IN (" + strings(10_000, true) + ")",
            "SELECT count(*) FROM trades WHERE sym NOT IN (" + strings(10_000, false) + ")",
            "SELECT count(*) FROM trades WHERE volume IN (" + integers(10_000, true) + ")",
            "SELECT sym, count(*), sum(volume) FROM trades WHERE volume NOT IN (" + integers(10_000, false) + ")"
                + " GROUP BY sym",
        };
        for (String sql : sqls) {
            String plan = PushdownEquivalenceTest.check(sql);
            assertTrue(sql.substring(0, 60) + "\n" + plan.substring(0, Math.min(plan.length(), 300)),
                    plan.startsWith("VortexAggregateScan") && plan.contains(" IN ("));
        }
        assertTrue(Sql.longs(plain, "SELECT count(*) FROM trades WHERE sym IN (" + strings(10_000, false) + ")")
                .get(0) > 1000);
    }

    @Test
    public void listsCalciteEvaluatesUseAHashSet() throws SQLException {
        String[] sqls = {
            // An OR with an untranslatable branch: the whole condition stays with Calcite.
            "SELECT count(*) FROM trades WHERE sym IN (" + strings(3_000, false) + ") OR volume > price",
            "SELECT count(*) FROM trades WHERE sym NOT IN (" + strings(3_000, true) + ") OR volume > price",
            "SELECT count(*) FROM trades WHERE volume IN (" + integers(3_000, false) + ") AND volume < price",
            // Above a join.
            "SELECT count(*) FROM trades t JOIN trades u ON t.ts = u.ts WHERE t.sym IN (" + strings(300, false)
                + ") OR u.volume IN (" + integers(300, false) + ")",
            // NULL in the list, NOT IN: nothing, or only what Calcite selects.
            "SELECT count(*) FROM types WHERE s NOT IN ('A', 'B', " + strings(400, true) + ")",
            "SELECT count(*) FROM types WHERE s IN ('A', 'B', " + strings(400, true) + ") OR s IS NULL",
            "SELECT id FROM types WHERE i64 IN (0, 1, -1, " + integers(400, false) + ") OR b",
            "SELECT id FROM types WHERE d IN (DATE '1970-01-01', " + dates(400) + ") OR b",
        };
        for (String sql : sqls) {
            PushdownEquivalenceTest.check(sql);
        }
        String plan = Sql.explain(push, sqls[0]);
        assertTrue(plan.substring(0, 200), plan.contains("EnumerableInListFilter"));
        assertFalse(Sql.answer(plain, sqls[0]).isEmpty());
    }

    @Test
    public void parametersBesideALargeListAreBoundPerExecution() throws SQLException {
        String sql = "SELECT count(*) FROM trades WHERE sym IN (" + strings(1_000, false) + ") OR volume > price + ?";
        try (PreparedStatement on = push.prepareStatement(sql); PreparedStatement off = plain.prepareStatement(sql)) {
            for (int p : new int[] {0, 300, 900}) {
                on.setInt(1, p);
                off.setInt(1, p);
                List<String> expected = Sql.answer(off.executeQuery());
                assertEquals(sql.substring(0, 40) + " ? = " + p, expected, Sql.answer(on.executeQuery()));
            }
        }
    }
}
