package io.vortex4j.trino;

import io.trino.Session;
import io.trino.sql.planner.plan.AggregationNode;
import io.trino.sql.planner.plan.FilterNode;
import io.trino.sql.planner.plan.PlanNode;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;
import io.vortex4j.trino.local.VortexQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each pushed form against the same query with push-down off and against Trino's TPC-H
 * connector reading the same rows: the answers must be equal, and with push-down on the filters
 * the reader applies exactly leave no filter for Trino.
 */
public class VortexPushdownTest extends AbstractTestQueryFramework {
    @Override
    protected QueryRunner createQueryRunner() throws Exception {
        Path dir = Files.createTempDirectory("vortex-trino-pushdown");
        return VortexQueryRunner.create(dir, 2, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.NATION));
    }

    private Session pushdown(boolean on) {
        return Session.builder(getSession())
                .setCatalogSessionProperty(VortexQueryRunner.CATALOG, VortexSessionProperties.PUSHDOWN_ENABLED, String.valueOf(on))
                .build();
    }

    private Session tpch() {
        return Session.builder(getSession()).setCatalog("tpch").setSchema("tiny").build();
    }

    /** The answer with push-down on equals the one with it off and the TPC-H connector's. */
    private void assertSameAnswers(String sql) {
        MaterializedResult expected = computeActual(tpch(), sql);
        MaterializedResult off = computeActual(pushdown(false), sql);
        MaterializedResult on = computeActual(pushdown(true), sql);
        assertThat(off.getMaterializedRows()).as("push-down off: %s", sql).containsExactlyInAnyOrderElementsOf(expected.getMaterializedRows());
        assertThat(on.getMaterializedRows()).as("push-down on: %s", sql).containsExactlyInAnyOrderElementsOf(expected.getMaterializedRows());
    }

    /** As {@link #assertSameAnswers}, and the filter is fully applied by the reader. */
    private void assertPushed(String sql) {
        assertPushed(sql, FilterNode.class);
    }

    /**
     * As {@link #assertSameAnswers}; with push-down the reader does all, without it Trino runs a
     * {@code node} right over the scan (null: the plan without push-down is not checked).
     */
    private void assertPushed(String sql, Class<? extends PlanNode> node) {
        assertSameAnswers(sql);
        assertThat(query(pushdown(true), sql)).isFullyPushedDown();
        if (node != null) {
            assertThat(query(pushdown(false), sql)).isNotFullyPushedDown(node);
        }
    }

    /** A pushed aggregate: the plan with push-down has no aggregation left for Trino. */
    private void assertAggregatePushed(String sql) {
        assertPushed(sql, null);
    }

    @Test
    public void integerComparisons() {
        assertPushed("SELECT orderkey, custkey FROM orders WHERE orderkey = 7");
        assertPushed("SELECT orderkey FROM orders WHERE orderkey BETWEEN 100 AND 300");
        assertPushed("SELECT orderkey FROM orders WHERE orderkey < 50 OR orderkey > 59000");
        assertPushed("SELECT orderkey FROM orders WHERE custkey IN (1, 4, 7, 10, 11, 13)");
        assertPushed("SELECT orderkey, linenumber FROM lineitem WHERE linenumber <> 1 AND orderkey <= 40");
        assertPushed("SELECT orderkey FROM orders WHERE custkey NOT IN (1, 4, 7) AND orderkey < 100");
    }

    @Test
    public void stringComparisons() {
        assertPushed("SELECT orderkey FROM orders WHERE orderstatus = 'P'");
        assertPushed("SELECT orderkey, clerk FROM orders WHERE clerk >= 'Clerk#000000990'");
        assertPushed("SELECT orderkey FROM orders WHERE orderpriority IN ('1-URGENT', '5-LOW') AND orderkey < 1000");
        assertPushed("SELECT n_name FROM (SELECT name AS n_name FROM nation) WHERE n_name < 'C'");
        assertPushed("SELECT orderkey FROM orders WHERE orderstatus = 'no such status'");
    }

    @Test
    public void like() {
        assertPushed("SELECT orderkey FROM orders WHERE orderpriority LIKE '1%'");
        assertPushed("SELECT orderkey, comment FROM orders WHERE comment LIKE '%special%requests%'");
        assertPushed("SELECT name FROM nation WHERE name LIKE '_RAN%'");
        assertPushed("SELECT orderkey FROM orders WHERE comment LIKE '%fluffily\\_%' ESCAPE '\\'");
    }

    @Test
    public void datesAndDecimals() {
        assertPushed("SELECT orderkey FROM orders WHERE orderdate < DATE '1992-02-01'");
        assertPushed("SELECT orderkey FROM orders WHERE orderdate BETWEEN DATE '1995-03-01' AND DATE '1995-03-03'");
    }

    @Test
    public void filtersLeftToTrino() {
        // Doubles (NaN orders differently) and expressions stay with Trino; answers must not change.
        assertSameAnswers("SELECT orderkey FROM orders WHERE totalprice > 400000");
        assertSameAnswers("SELECT orderkey FROM orders WHERE orderkey % 1000 = 7");
        assertSameAnswers("SELECT orderkey FROM orders WHERE orderstatus = 'F' OR totalprice < 1000");
        assertSameAnswers("SELECT orderkey FROM orders WHERE lower(orderstatus) = 'p' AND orderkey < 2000");
    }

    @Test
    public void aggregatesOverFilteredScans() {
        assertSameAnswers("SELECT orderstatus, count(*), sum(totalprice), min(orderdate), max(clerk) FROM orders GROUP BY orderstatus");
        assertSameAnswers("SELECT count(*) FROM orders WHERE orderpriority = '2-HIGH'");
        assertSameAnswers("SELECT count(*) FROM lineitem");
        assertSameAnswers("SELECT returnflag, linestatus, sum(quantity), avg(extendedprice), count(*) FROM lineitem "
                + "WHERE shipdate <= DATE '1998-09-01' GROUP BY returnflag, linestatus");
    }

    @Test
    public void aggregates() {
        assertAggregatePushed("SELECT orderstatus, count(*), sum(custkey), min(orderdate), max(orderkey), avg(custkey) FROM orders GROUP BY orderstatus");
        assertAggregatePushed("SELECT count(*) FROM orders");
        assertAggregatePushed("SELECT count(*), max(shipdate), min(linenumber) FROM lineitem WHERE returnflag = 'R'");
        assertAggregatePushed("SELECT orderpriority, orderstatus, count(clerk) FROM orders WHERE orderkey < 30000 GROUP BY orderpriority, orderstatus");
        assertAggregatePushed("SELECT linenumber, count(*), sum(orderkey) FROM lineitem GROUP BY linenumber");
        assertAggregatePushed("SELECT count(*), sum(custkey), avg(custkey), max(orderdate) FROM orders WHERE orderkey < 0");
        assertAggregatePushed("SELECT orderstatus, count(*) FROM orders WHERE orderkey < 0 GROUP BY orderstatus");
        assertAggregatePushed("SELECT shippriority, count(*) FROM orders GROUP BY shippriority");
        // Left to Trino: floating-point sums, DISTINCT, string MIN/MAX; answers unchanged.
        for (String sql : List.of("SELECT orderstatus, sum(totalprice) FROM orders GROUP BY orderstatus",
                "SELECT count(DISTINCT custkey) FROM orders",
                "SELECT max(clerk) FROM orders")) {
            assertSameAnswers(sql);
            assertThat(query(pushdown(true), sql)).isNotFullyPushedDown(AggregationNode.class);
        }
    }

    /**
     * A grouped aggregation that may form more groups than the session allows is left to Trino;
     * the bound is the columns' ranges or distinct counts (orders.custkey: 1..1499).
     */
    @Test
    public void aggregatesWithManyGroupsStayWithTrino() {
        String byCustomer = "SELECT custkey, count(*), sum(orderkey) FROM orders GROUP BY custkey";
        assertAggregatePushed(byCustomer);
        Session fewGroups = Session.builder(pushdown(true))
                .setCatalogSessionProperty(VortexQueryRunner.CATALOG, VortexSessionProperties.AGGREGATION_PUSHDOWN_MAX_GROUPS, "1000")
                .build();
        assertThat(query(fewGroups, byCustomer)).isNotFullyPushedDown(AggregationNode.class);
        assertThat(computeActual(fewGroups, byCustomer).getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(computeActual(tpch(), byCustomer).getMaterializedRows());
        // A filter narrowing the range below the bound lets it through again.
        assertThat(query(fewGroups, "SELECT custkey, count(*) FROM orders WHERE custkey < 500 GROUP BY custkey")).isFullyPushedDown();
        assertThat(query(fewGroups, "SELECT orderstatus, shippriority, count(*) FROM orders GROUP BY orderstatus, shippriority")).isFullyPushedDown();
    }

    @Test
    public void limit() {
        for (boolean on : new boolean[] {false, true}) {
            assertThat(computeActual(pushdown(on), "SELECT orderkey FROM orders LIMIT 17").getRowCount()).isEqualTo(17);
            assertThat(computeActual(pushdown(on), "SELECT count(*) FROM (SELECT * FROM lineitem WHERE linenumber = 3 LIMIT 500)").getOnlyValue())
                    .isEqualTo(500L);
        }
        assertSameAnswers("SELECT count(*) FROM (SELECT * FROM orders WHERE orderkey < 0 LIMIT 5)");
    }

    /** In ORDER BY order: push-down on, push-down off and the TPC-H connector give the same rows. */
    private void assertSameOrderedAnswers(String sql) {
        MaterializedResult expected = computeActual(tpch(), sql);
        for (boolean on : new boolean[] {false, true}) {
            assertThat(computeActual(pushdown(on), sql).getMaterializedRows()).as("push-down %s: %s", on, sql)
                    .containsExactlyElementsOf(expected.getMaterializedRows());
        }
    }

    private String explain(String sql) {
        return (String) computeActual(pushdown(true), "EXPLAIN " + sql).getOnlyValue();
    }

    @Test
    public void topN() {
        for (String sql : List.of(
                "SELECT orderkey, totalprice FROM orders ORDER BY totalprice DESC, orderkey LIMIT 10",
                "SELECT orderkey, orderdate, orderstatus FROM orders WHERE orderstatus = 'F' ORDER BY orderdate, orderkey DESC LIMIT 25",
                "SELECT orderkey, linenumber, shipdate, returnflag FROM lineitem ORDER BY shipdate DESC, orderkey, linenumber LIMIT 7",
                "SELECT orderkey, linenumber, quantity FROM lineitem WHERE returnflag = 'R' ORDER BY quantity DESC, extendedprice, orderkey, linenumber LIMIT 40",
                "SELECT custkey, orderkey FROM orders WHERE orderkey < 0 ORDER BY custkey, orderkey LIMIT 3")) {
            assertSameOrderedAnswers(sql);
            assertThat(explain(sql)).as(sql).contains("topN=[");
        }
        // A string key stays with Trino (UTF-16 and UTF-8 orders differ); a limit first cuts the rows.
        for (String sql : List.of(
                "SELECT orderkey, clerk FROM orders ORDER BY clerk, orderkey LIMIT 5",
                "SELECT orderkey FROM (SELECT orderkey FROM orders LIMIT 100) ORDER BY orderkey LIMIT 5")) {
            assertThat(explain(sql)).as(sql).doesNotContain("topN=[");
        }
        assertSameOrderedAnswers("SELECT orderkey, clerk FROM orders ORDER BY clerk, orderkey LIMIT 5");
        assertThat(computeActual(pushdown(true), "SELECT count(*) FROM (SELECT orderkey FROM (SELECT orderkey FROM orders LIMIT 100) ORDER BY orderkey LIMIT 5)")
                .getOnlyValue()).isEqualTo(5L);
    }
}
