package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;

/**
 * A filter on large IN lists run by Calcite's enumerable engine: the condition, Calcite's own
 * code around hash-set tests of the lists ({@link InListRowTest}), is handed to the generated
 * plan as an object (stashed) instead of as code, so its size does not depend on the lists'.
 */
final class EnumerableInListFilter extends InListFilterBase implements EnumerableRel {
    EnumerableInListFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new EnumerableInListFilter(getCluster(), traitSet, sole(inputs), condition);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
        Expression rows = builder.append("rows", input.block);
        PhysType physType = input.physType;
        if (physType.getFormat() != JavaRowFormat.SCALAR && physType.getFormat() != JavaRowFormat.ARRAY) {
            rows = builder.append("arrays", physType.convertTo(rows, JavaRowFormat.ARRAY));
            physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY, false);
        }
        InListRowTest test = InListRowTest.of(condition, getInput().getRowType(),
                physType.getFormat() == JavaRowFormat.SCALAR, getCluster().getRexBuilder(), implementor.getConformance());
        Expression bound = Expressions.call(implementor.stash(test, InListRowTest.class), "bind", DataContext.ROOT);
        builder.add(Expressions.return_(null, Expressions.call(rows, BuiltInMethod.WHERE.method, bound)));
        return implementor.result(physType, builder.toBlock());
    }
}
