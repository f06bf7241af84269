package io.vortex4j.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;

/**
 * Makes a {@link LogicalInListFilter} an {@link EnumerableInListFilter}, which Calcite runs with a
 * hash set ({@link VortexRules#IN_LIST_FILTER_TO_ENUMERABLE}).
 */
final class EnumerableInListFilterRule extends ConverterRule {
    EnumerableInListFilterRule(ConverterRule.Config config) {
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
