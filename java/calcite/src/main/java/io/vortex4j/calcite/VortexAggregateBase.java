package io.vortex4j.calcite;

import io.vortex4j.reader.Predicate;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * What the logical and the enumerable aggregate scans share: filter, group column, aggregate
 * calls, the aggregate's row type, cost and EXPLAIN terms.
 */
abstract class VortexAggregateBase extends TableScan {
    final VortexPushdownTable vortexTable;
    final Predicate filter;
    final VortexColumn group;
    final List<VortexAggregateSpec.Call> calls;
    final RelDataType outputType;

    VortexAggregateBase(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, VortexPushdownTable vortexTable,
            Predicate filter, VortexColumn group, List<VortexAggregateSpec.Call> calls, RelDataType outputType) {
        super(cluster, traits, List.of(), table);
        this.vortexTable = vortexTable;
        this.filter = filter;
        this.group = group;
        this.calls = List.copyOf(calls);
        this.outputType = outputType;
    }

    @Override
    public RelDataType deriveRowType() {
        return outputType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw)
                .itemIf("filter", filter, filter != null)
                .itemIf("group", group == null ? null : group.name(), group != null)
                .item("aggregates", calls.stream().map(Object::toString).toList());
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return group == null ? 1 : Math.max(1, Math.min(1000, table.getRowCount() / 10));
    }

    /** Far cheaper than scanning rows into Calcite and aggregating there. */
    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double work = table.getRowCount() * 0.01 + estimateRowCount(mq);
        return planner.getCostFactory().makeCost(work, work, 0);
    }
}
