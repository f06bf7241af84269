package io.vortex4j.calcite;

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
import org.apache.calcite.rel.core.TableScan;

/**
 * Every row and column of a table without push-down ({@link VortexTable}), for a table holding a
 * list of structs: rows are {@code Object[]} (struct values {@code Object[]}, lists {@code List}),
 * handed to Calcite as the push-down scan hands them. Calcite's own {@code EnumerableTableScan} of
 * a scannable table converts such list columns with generated code that does not compile (an
 * ambiguous {@code Linq4j.asEnumerable(Object)}). Nothing is pushed into it: Calcite evaluates
 * every filter, projection and aggregate above it.
 */
final class VortexPlainScan extends TableScan implements EnumerableRel {
    private final VortexTable vortexTable;

    VortexPlainScan(RelOptCluster cluster, RelOptTable table, VortexTable vortexTable) {
        super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), List.of(), table);
        this.vortexTable = vortexTable;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new VortexPlainScan(getCluster(), getTable(), vortexTable);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        int n = vortexTable.columns().size();
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY, n > 0);
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        VortexScanSpec spec = new VortexScanSpec(vortexTable, all, null, physType.getFormat() == JavaRowFormat.SCALAR);
        Expression specExpr = implementor.stash(spec, VortexScanSpec.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(specExpr, "enumerable", implementor.getRootExpression())));
    }
}
