package io.vortex4j.calcite.jdbc;

import io.vortex4j.calcite.LargeInLists;
import io.vortex4j.calcite.VortexAggregateScan;
import io.vortex4j.calcite.VortexRules;
import java.util.List;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.sql.SqlKind;

/**
 * The plan of a statement that is one pushed aggregate, found by applying the push-down rules
 * ({@link VortexRules}) alone, without Calcite's cost-based planner and its ~150 default rules.
 * Such a plan ({@link VortexAggregateScan} at the root) is the only one the cost-based planner
 * would choose: nothing is left for Calcite to compute. In a fresh JVM, setting that planner up
 * and running it is most of a one-shot {@code COUNT(*) … WHERE …} or filtered {@code GROUP BY}'s
 * planning ({@link DeferredRulesPlanner} leaves its rules unregistered until then).
 *
 * <p>When the rules leave anything else (a filter they cannot translate, a projection or a sort
 * above the aggregate, a sub-query, a join) the result is thrown away and the statement is
 * planned Calcite's way from the same logical plan. {@code -Dvortex4j.directPlans=false} turns
 * this off with {@link DirectPlan}, to compare.
 */
final class DirectOptimization {
    private DirectOptimization() {}

    /** Push filters and projections into the scan, then the aggregate, then make it enumerable. */
    private static final HepProgram PROGRAM = HepProgram.builder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleCollection(List.of(VortexRules.FILTER, VortexRules.FILTER_IN_LIST, VortexRules.PROJECT))
            .addRuleCollection(List.of(VortexRules.AGGREGATE, VortexRules.AGGREGATE_PROJECT))
            .addRuleInstance(VortexRules.AGGREGATE_TO_ENUMERABLE)
            .build();

    /**
     * The pushed aggregate {@code root} (a logical plan, large IN lists already set apart by
     * {@link LargeInLists}) comes to, or null when it does not come to one.
     *
     * @param root the statement's logical plan
     * @param planner the statement's planner, whose context the rules read
     * @param executor reduces constant expressions, as the statement's planner would
     */
    static RelNode of(RelRoot root, RelOptPlanner planner, RexExecutor executor) {
        if (!DirectPlan.ENABLED || root.kind != SqlKind.SELECT || !root.isRefTrivial()) {
            return null;
        }
        HepPlanner hep = new HepPlanner(PROGRAM, planner.getContext());
        hep.setExecutor(executor);
        hep.setRoot(root.rel);
        RelNode best = hep.findBestExp();
        if (!(best instanceof VortexAggregateScan)
                || !RelOptUtil.areRowTypesEqual(root.rel.getRowType(), best.getRowType(), false)) {
            return null;
        }
        return best;
    }

    /** Initialises the rules and the planner that applies them ({@link PlannerWarmUp}). */
    static void warmUp() {
        new HepPlanner(PROGRAM).getRoot();
    }
}
