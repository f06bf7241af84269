package io.vortex4j.engine;

import io.vortex4j.calcite.DoubleQuotients;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.RelDecorrelator;

/**
 * A statement's logical plan made ready for the native engine, which must compute what Calcite
 * would: EXISTS, NOT EXISTS and IN conjuncts become semi and anti joins ({@link SemiJoins}), other
 * sub-queries joins (Calcite's own rules and decorrelator), constant expressions
 * are folded, and where DataFusion's arithmetic differs from Calcite's types the plan says
 * Calcite's explicitly (averages and decimal quotients in DOUBLE, as {@code VortexTypeSystem}
 * types them, {@link DoubleQuotients}). Joins are left in the statement's order: DataFusion's optimizer turns filters
 * over cross products into join keys and picks each hash join's build side from the tables'
 * row counts.
 */
final class LogicalPlans {
    private LogicalPlans() {}

    private static final HepProgram SUB_QUERIES = HepProgram.builder()
            .addRuleCollection(List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                    CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
            .build();

    /** AVG as SUM / COUNT in AVG's type (DOUBLE); constants folded. */
    private static final HepProgram SIMPLIFY = HepProgram.builder()
            .addRuleInstance(AggregateReduceFunctionsRule.Config.DEFAULT
                    .withFunctionsToReduce(EnumSet.of(SqlKind.AVG)).toRule())
            .addRuleCollection(List.of(CoreRules.FILTER_REDUCE_EXPRESSIONS, CoreRules.PROJECT_REDUCE_EXPRESSIONS,
                    CoreRules.JOIN_REDUCE_EXPRESSIONS))
            .build();

    /** The plan of {@code root}'s result columns, ready for the native engine. */
    static RelNode prepare(RelRoot root) {
        RelNode rel = hep(SUB_QUERIES, root.project().accept(new SemiJoins()));
        rel = RelDecorrelator.decorrelateQuery(rel, RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null));
        rel = hep(SIMPLIFY, rel);
        rel = rel.accept(new LiteralAggregates());
        return NativeFunctions.of(DoubleQuotients.of(rel));
    }

    /**
     * {@code LITERAL_AGG(v)} (the marker Calcite's sub-query rules add for NOT IN and EXISTS),
     * which Substrait has no function for, as the literal {@code v} projected above the
     * aggregate: every group of a grouped aggregate has a row, so its value is {@code v}. Declined
     * without groups (an empty input still gives a row).
     */
    private static final class LiteralAggregates extends RelHomogeneousShuttle {
        @Override
        public RelNode visit(RelNode other) {
            RelNode rel = super.visit(other);
            if (!(rel instanceof Aggregate agg)
                    || agg.getAggCallList().stream().noneMatch(c -> c.getAggregation().getKind() == SqlKind.LITERAL_AGG)) {
                return rel;
            }
            if (agg.getGroupSet().isEmpty() || agg.getGroupType() != Aggregate.Group.SIMPLE) {
                throw new NativeTables.Declined("LITERAL_AGG without groups");
            }
            RexBuilder rex = agg.getCluster().getRexBuilder();
            int groups = agg.getGroupCount();
            List<AggregateCall> calls = new ArrayList<>();
            for (AggregateCall c : agg.getAggCallList()) {
                if (c.getAggregation().getKind() != SqlKind.LITERAL_AGG) {
                    calls.add(c);
                }
            }
            Aggregate rest = agg.copy(agg.getTraitSet(), agg.getInput(), agg.getGroupSet(), agg.getGroupSets(), calls);
            List<RexNode> projects = new ArrayList<>();
            for (int i = 0; i < groups; i++) {
                projects.add(rex.makeInputRef(rest, i));
            }
            int next = groups;
            for (AggregateCall c : agg.getAggCallList()) {
                projects.add(c.getAggregation().getKind() == SqlKind.LITERAL_AGG
                        ? rex.makeCast(c.getType(), c.rexList.get(0), true, false)
                        : rex.makeInputRef(rest, next++));
            }
            return LogicalProject.create(rest, List.of(), projects, agg.getRowType().getFieldNames(),
                    java.util.Set.of());
        }
    }

    private static RelNode hep(HepProgram program, RelNode rel) {
        HepPlanner planner = new HepPlanner(program, rel.getCluster().getPlanner().getContext());
        planner.setExecutor(rel.getCluster().getPlanner().getExecutor());
        planner.setRoot(rel);
        return planner.findBestExp();
    }
}
