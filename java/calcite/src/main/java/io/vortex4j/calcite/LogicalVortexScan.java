package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

/**
 * The logical form of a {@link VortexTableScan} (convention {@code NONE}): created by {@link
 * VortexPushdownTable#toRel}; the rules of {@link VortexRules} push projections and filters into
 * it, replace aggregates over it with a {@link LogicalVortexAggregate}, and finally turn it into
 * the enumerable {@link VortexTableScan}.
 */
final class LogicalVortexScan extends VortexScanBase {
    LogicalVortexScan(RelOptCluster cluster, RelOptTable table, VortexPushdownTable vortexTable, int[] fields,
            Predicate filter) {
        super(cluster, cluster.traitSetOf(Convention.NONE), table, vortexTable, fields, filter);
    }

    LogicalVortexScan withFields(int[] newFields) {
        return new LogicalVortexScan(getCluster(), getTable(), vortexTable, newFields, filter);
    }

    LogicalVortexScan withFilter(Predicate newFilter) {
        return new LogicalVortexScan(getCluster(), getTable(), vortexTable, fields, newFilter);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new LogicalVortexScan(getCluster(), getTable(), vortexTable, fields, filter);
    }
}
