package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.Sql;
import io.vortex4j.calcite.TestData;
import io.vortex4j.calcite.VortexSql;
import io.vortex4j.calcite.WithConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.runtime.Hook;
import org.junit.Test;

/**
 * Plans that are one pushed aggregate are found without Calcite's cost-based planner ({@link
 * DirectOptimization}) and run without generated code ({@link DirectPlan}): the answers equal
 * Calcite's over the plain connection (push-down off), and Calcite's hooks for the optimisation
 * program ({@link Hook#PROGRAM}, fired when the cost-based planner's program is built) and for the
 * generated Java plan ({@link Hook#JAVA_PLAN}) stay silent for them, while both fire for plans
 * with anything above the scan.
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

    /**
     * A pushed aggregate only after Calcite's own rewrites (here moving the filter on a group key
     * below the aggregate): the push-down rules alone leave a filter above the aggregate, so the
     * cost-based planner plans it, and generated code is not needed.
     */
    private static final String[] REWRITTEN_FIRST = {
        "SELECT * FROM (SELECT sym, COUNT(*) AS c FROM trades GROUP BY sym) t WHERE sym = 'AAPL'",
    };

    @Test
    public void aPushedAggregateRunsWithoutPlannerOrGeneratedCode() throws SQLException {
        assertPushedAggregates(DIRECT, 0);
    }

    @Test
    public void theCostBasedPlannerTakesWhatThePushDownRulesLeave() throws SQLException {
        assertPushedAggregates(REWRITTEN_FIRST, 1);
    }

    /** Each of {@code queries} is a pushed aggregate, planned {@code programs} times by the cost-based planner, not compiled. */
    private void assertPushedAggregates(String[] queries, int programs) throws SQLException {
        for (String sql : queries) {
            assertTrue(sql + ": " + Sql.explain(push, sql), Sql.explain(push, sql).contains("VortexAggregateScan"));
            Planned p = planAndRun(sql);
            assertEquals(sql, Sql.answer(plain, sql), p.answer);
            assertEquals(sql + ": programs of the cost-based planner", programs, p.programs);
            assertEquals(sql + " compiled " + p.javaPlans, List.of(), p.javaPlans);
        }
    }

    @Test
    public void otherPlansStillGenerateCodeAndAgree() throws SQLException {
        for (String sql : GENERATED) {
            Planned p = planAndRun(sql);
            assertEquals(sql, Sql.answer(plain, sql), p.answer);
            assertEquals(sql, 1, p.programs);
            assertEquals(sql, 1, p.javaPlans.size());
        }
    }

    /** A statement's answer, how often the cost-based planner's program was built for it, its generated code. */
    private record Planned(List<String> answer, int programs, List<String> javaPlans) {}

    /** Plans (on a connection without a plan cache) and runs {@code sql}, watching Calcite's hooks. */
    private static Planned planAndRun(String sql) throws SQLException {
        List<String> javaPlans = new ArrayList<>();
        int[] programs = {0};
        try (Connection c = VortexSql.connect(TestData.dir(), true, 0);
                Hook.Closeable p = Hook.PROGRAM.addThread((java.util.function.Consumer<Object>) h -> programs[0]++);
                Hook.Closeable j = Hook.JAVA_PLAN.addThread(
                        (java.util.function.Consumer<Object>) code -> javaPlans.add(String.valueOf(code)))) {
            List<String> answer = Sql.answer(c, sql);
            return new Planned(answer, programs[0], javaPlans);
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
