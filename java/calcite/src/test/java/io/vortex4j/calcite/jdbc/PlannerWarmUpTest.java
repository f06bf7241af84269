package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.Sql;
import io.vortex4j.calcite.TestData;
import io.vortex4j.calcite.VortexSql;
import io.vortex4j.calcite.WithConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * {@link PlannerWarmUp} only sets up JVM-wide state: queries planned after it (on a connection
 * without a plan cache, so each is planned again) get the plans they got before it, and their
 * answers equal Calcite's over the plain connection (push-down off).
 */
public class PlannerWarmUpTest extends WithConnections {
    private static final String[] QUERIES = {
        "SELECT COUNT(*) FROM trades WHERE sym = 'AAPL'",
        "SELECT sym, COUNT(*) FROM trades WHERE sym IN ('AAPL', 'MSFT', 'IBM', 'NVDA') GROUP BY sym",
        "SELECT sym, COUNT(*) FROM trades GROUP BY sym ORDER BY sym",
        "SELECT * FROM trades WHERE volume > 10 ORDER BY ts LIMIT 5",
        "SELECT sym, MAX(price) FROM trades WHERE volume > 500 GROUP BY sym HAVING COUNT(*) > 1",
    };

    @Test
    public void plansAndAnswersAreUnchanged() throws SQLException {
        List<String> before = new ArrayList<>();
        try (Connection c = VortexSql.connect(TestData.dir(), true, 0)) {
            for (String sql : QUERIES) {
                before.add(Sql.explain(c, sql));
            }
        }
        PlannerWarmUp.run();
        PlannerWarmUp.run(); // a second run changes nothing either
        try (Connection c = VortexSql.connect(TestData.dir(), true, 0)) {
            for (int i = 0; i < QUERIES.length; i++) {
                String sql = QUERIES[i];
                assertEquals(sql, before.get(i), Sql.explain(c, sql));
                assertEquals(sql, Sql.answer(plain, sql), Sql.answer(c, sql));
            }
        }
        assertTrue(before.get(0), before.get(0).contains("VortexAggregateScan"));
    }
}
