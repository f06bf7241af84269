package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

/**
 * What the logical and the enumerable filter on large IN lists share: the condition, EXPLAIN
 * terms, cost, and the rules they register ({@link LargeInLists}). Not a {@code Filter}, on
 * purpose: Calcite's filter rules would merge the condition into other filters and projections,
 * whose generated code cannot hold the lists.
 */
abstract class InListFilterBase extends SingleRel {
    final RexNode condition;

    InListFilterBase(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        super(cluster, traits, input);
        this.condition = condition;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("condition", condition);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return mq.getRowCount(getInput()) * VortexScanBase.FILTER_SELECTIVITY;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        return planner.getCostFactory().makeCost(rows, rows, 0);
    }

    @Override
    public void register(RelOptPlanner planner) {
        for (RelOptRule rule : List.of(VortexRules.IN_LIST_FILTER_TO_ENUMERABLE, VortexRules.FILTER_IN_LIST)) {
            planner.addRule(rule);
        }
    }
}
