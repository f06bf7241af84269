package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/**
 * An aggregation computed inside the Vortex scan: {@code SELECT [g,] COUNT(*), COUNT(c), SUM(c),
 * MIN(c), MAX(c) ... WHERE filter [GROUP BY g, ...]} in one fused pass of the reader's {@link
 * io.vortex4j.reader.compute.GroupAggregate}. EXPLAIN shows the pushed parts, e.g. {@code
 * VortexAggregateScan(table=[[vortex, trades]], filter=[sym = 'AAPL'], group=[sym],
 * aggregates=[[COUNT(*), SUM(volume)]])}. AVG arrives here as SUM and COUNT (Calcite's own
 * reduction), with Calcite dividing them above the scan exactly as it would without push-down.
 */
public final class VortexAggregateScan extends VortexAggregateBase implements EnumerableRel {
    VortexAggregateScan(RelOptCluster cluster, RelOptTable table, VortexPushdownTable vortexTable, Predicate filter,
            List<VortexAggregateSpec.Group> keys, List<VortexAggregateSpec.Call> calls, RelDataType outputType,
            double groups) {
        super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), table, vortexTable, filter, keys, calls,
                outputType, groups);
    }

    /** The pushed filter, or null. */
    public Predicate filter() {
        return filter;
    }

    /**
     * Whether an aggregate other than a count folds a DECIMAL column: the native engine does that
     * faster than the kernels (lineitem at TPC-H SF 1, 2 threads: four decimal sums 93 ms against
     * 593, grouped 112 against 393, MIN/MAX 23 against 59), which keep counts, integers and
     * floating point grouped by dictionary columns.
     */
    public boolean foldsDecimals() {
        return calls.stream().anyMatch(c -> c.column() != null && c.function() != VortexAggregateSpec.Function.COUNT
                && c.column().type().kind() == DataType.Kind.DECIMAL);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new VortexAggregateScan(getCluster(), getTable(), vortexTable, filter, keys, calls, outputType, groups);
    }

    /** What this scan computes; {@code scalar}: rows are the one column's values, not arrays. */
    public VortexAggregateSpec spec(boolean scalar) {
        return new VortexAggregateSpec(vortexTable, filter, keys, calls, scalar);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
        VortexAggregateSpec spec = spec(scalar);
        Expression specExpr = implementor.stash(spec, VortexAggregateSpec.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(specExpr, "enumerable", implementor.getRootExpression())));
    }
}
