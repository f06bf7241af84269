package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;

/**
 * The logical form (convention {@code NONE}) of a filter whose condition holds large IN lists
 * ({@link LargeInLists}): pushed into a Vortex scan where the translator takes it ({@link
 * VortexRules#FILTER_IN_LIST}), otherwise made an {@link EnumerableInListFilter}.
 */
final class LogicalInListFilter extends InListFilterBase {
    /** Makes a {@link LogicalInListFilter} an {@link EnumerableInListFilter}. */
    static final RelOptRule TO_ENUMERABLE = ConverterRule.Config.INSTANCE
            .withConversion(LogicalInListFilter.class, Convention.NONE, EnumerableConvention.INSTANCE,
                    "VortexInListFilterRule")
            .withRuleFactory(ToEnumerable::new)
            .toRule(ToEnumerable.class);

    LogicalInListFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, org.apache.calcite.rex.RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new LogicalInListFilter(getCluster(), traitSet, sole(inputs), condition);
    }

    /** See {@link #TO_ENUMERABLE}. */
    static final class ToEnumerable extends ConverterRule {
        ToEnumerable(ConverterRule.Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalInListFilter f = (LogicalInListFilter) rel;
            RelNode input = convert(f.getInput(), f.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
            return new EnumerableInListFilter(f.getCluster(), f.getCluster().traitSetOf(EnumerableConvention.INSTANCE),
                    input, f.condition);
        }
    }
}
