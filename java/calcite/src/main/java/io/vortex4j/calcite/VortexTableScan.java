package io.vortex4j.calcite;

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

/**
 * A scan of a Vortex table that reads only some columns ({@code fields}) and only the rows a
 * pushed filter selects ({@code filter}, a reader {@link Predicate} that selects exactly the rows
 * Calcite's condition would keep). EXPLAIN shows both, e.g. {@code VortexTableScan(table=[[vortex,
 * trades]], fields=[[sym, volume]], filter=[sym = 'AAPL'])}.
 *
 * <p>The enumerable form of a {@link LogicalVortexScan}; its generated code calls {@link
 * VortexScanSpec#enumerable}, which runs a {@link VortexEnumerator}.
 */
public final class VortexTableScan extends VortexScanBase implements EnumerableRel {
    VortexTableScan(RelOptCluster cluster, RelOptTable table, VortexPushdownTable vortexTable, int[] fields,
            Predicate filter) {
        super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), table, vortexTable, fields, filter);
    }

    /** The table columns the scan produces, as positions in the table's row type. */
    public int[] fields() {
        return fields.clone();
    }

    /** The pushed filter, or null. */
    public Predicate filter() {
        return filter;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new VortexTableScan(getCluster(), getTable(), vortexTable, fields, filter);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        // Rows are arrays, or bare values for one column (a table without columns keeps empty arrays).
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY,
                fields.length > 0);
        boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
        VortexScanSpec spec = new VortexScanSpec(vortexTable, fields, filter, scalar);
        Expression specExpr = implementor.stash(spec, VortexScanSpec.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(specExpr, "enumerable", implementor.getRootExpression())));
    }
}
