package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

/**
 * The logical form (convention {@code NONE}) of a filter whose condition holds large IN lists
 * ({@link LargeInLists}): pushed into a Vortex scan where the translator takes it ({@link
 * VortexRules#FILTER_IN_LIST}), otherwise made an {@link EnumerableInListFilter} ({@link
 * VortexRules#IN_LIST_FILTER_TO_ENUMERABLE}).
 */
final class LogicalInListFilter extends InListFilterBase {
    LogicalInListFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, org.apache.calcite.rex.RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new LogicalInListFilter(getCluster(), traitSet, sole(inputs), condition);
    }
}
