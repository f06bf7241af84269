package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.runtime.Hook;
import org.junit.Test;

/**
 * Plans that are one pushed aggregate run without generated code ({@link DirectPlan}): the
 * answers equal Calcite's over the plain connection (push-down off), and Calcite's hook for the
 * generated Java plan ({@link Hook#JAVA_PLAN}) stays silent for them while it fires for plans with
 * anything above the scan.
 */
public class DirectPlanTest extends WithConnections {
    /** Whole plan = the pushed aggregate: one column, several columns, grouped, filtered. */
    private static final String[] DIRECT = {
        "SELECT COUNT(*) FROM trades",
        "SELECT COUNT(*) FROM trades WHERE sym = 'AAPL'",
        "SELECT COUNT(*), MIN(volume), MAX(volume) FROM trades WHERE sym IN ('AAPL', 'MSFT')",
        "SELECT sym, COUNT(*), SUM(volume) FROM trades WHERE sym IN ('AAPL', 'MSFT', 'GOOG') GROUP BY sym",
        "SELECT sym, COUNT(*) FROM trades GROUP BY sym",
        "SELECT MAX(qty) FROM types WHERE s IS NOT NULL",
        "SELECT s, COUNT(f64), MIN(i32) FROM types GROUP BY s",
    };

    /** Something above the scan (a sort, arithmetic, a renamed or reordered column): generated code. */
    private static final String[] GENERATED = {
        "SELECT sym, COUNT(*) FROM trades GROUP BY sym ORDER BY sym",
        "SELECT COUNT(*) + 1 FROM trades WHERE sym = 'AAPL'",
        "SELECT SUM(volume), sym FROM trades GROUP BY sym",
    };

    @Test
    public void aPushedAggregateRunsWithoutGeneratedCode() throws SQLException {
        for (String sql : DIRECT) {
            assertTrue(sql + ": " + Sql.explain(push, sql), Sql.explain(push, sql).contains("VortexAggregateScan"));
            List<String> javaPlans = new ArrayList<>();
            List<String> got;
            try (Hook.Closeable ignored = Hook.JAVA_PLAN.addThread((java.util.function.Consumer<Object>) code -> javaPlans.add(String.valueOf(code)))) {
                got = Sql.answer(push, sql);
            }
            assertEquals(sql, Sql.answer(plain, sql), got);
            assertEquals(sql + " compiled " + javaPlans, List.of(), javaPlans);
        }
    }

    @Test
    public void otherPlansStillGenerateCodeAndAgree() throws SQLException {
        for (String sql : GENERATED) {
            List<String> javaPlans = new ArrayList<>();
            List<String> got;
            try (Hook.Closeable ignored = Hook.JAVA_PLAN.addThread((java.util.function.Consumer<Object>) code -> javaPlans.add(String.valueOf(code)))) {
                got = Sql.answer(push, sql);
            }
            assertEquals(sql, Sql.answer(plain, sql), got);
            assertEquals(sql, 1, javaPlans.size());
        }
    }

    /** Parameters are bound from the statement's context, as generated code binds them. */
    @Test
    public void parametersAreBoundPerExecution() throws SQLException {
        String sql = "SELECT COUNT(*), SUM(volume) FROM trades WHERE sym = ?";
        try (PreparedStatement ps = push.prepareStatement(sql)) {
            for (String sym : new String[] {"AAPL", "MSFT", "none"}) {
                ps.setString(1, sym);
                List<String> got;
                try (ResultSet rs = ps.executeQuery()) {
                    got = Sql.answer(rs);
                }
                String literal = "SELECT COUNT(*), SUM(volume) FROM trades WHERE sym = '" + sym + "'";
                assertEquals(sym, Sql.answer(plain, literal), got);
            }
        }
    }
}
