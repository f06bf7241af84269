package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/** The logical form of a {@link VortexAggregateScan} (convention {@code NONE}). */
final class LogicalVortexAggregate extends VortexAggregateBase {
    LogicalVortexAggregate(RelOptCluster cluster, RelOptTable table, VortexPushdownTable vortexTable,
            Predicate filter, List<VortexAggregateSpec.Group> keys, List<VortexAggregateSpec.Call> calls, RelDataType outputType,
            double groups) {
        super(cluster, cluster.traitSetOf(Convention.NONE), table, vortexTable, filter, keys, calls, outputType,
                groups);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new LogicalVortexAggregate(getCluster(), getTable(), vortexTable, filter, keys, calls, outputType, groups);
    }
}
