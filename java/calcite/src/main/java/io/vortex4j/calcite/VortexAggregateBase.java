package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
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
 * What the logical and the enumerable aggregate scans share: filter, group columns, aggregate
 * calls, the aggregate's row type, cost and EXPLAIN terms.
 */
abstract class VortexAggregateBase extends TableScan {
    final VortexPushdownTable vortexTable;
    final Predicate filter;
    /** The group columns (or one expression), in the aggregate's output order; empty without GROUP BY. */
    final List<VortexAggregateSpec.Group> keys;
    final List<VortexAggregateSpec.Call> calls;
    final RelDataType outputType;
    /** Calcite's estimate of the number of groups, taken from the aggregate this replaces. */
    final double groups;

    VortexAggregateBase(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, VortexPushdownTable vortexTable,
            Predicate filter, List<VortexAggregateSpec.Group> keys, List<VortexAggregateSpec.Call> calls, RelDataType outputType,
            double groups) {
        super(cluster, traits, List.of(), table);
        this.vortexTable = vortexTable;
        this.filter = filter;
        this.keys = List.copyOf(keys);
        this.calls = List.copyOf(calls);
        this.outputType = outputType;
        this.groups = groups;
    }

    @Override
    public RelDataType deriveRowType() {
        return outputType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        pw = super.explainTerms(pw)
                .itemIf("filter", filter, filter != null)
                .itemIf("group", String.join(", ", keys.stream().map(Object::toString).toList()), !keys.isEmpty())
                .item("aggregates", calls.stream().map(Object::toString).toList());
        return SplitsExplained.explain(pw, vortexTable, filter);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return groups;
    }

    /**
     * Cheaper than any alternative: a scan feeding Calcite's aggregate costs at least the groups
     * plus a share of the rows per column read (see {@link VortexScanBase#computeSelfCost}).
     */
    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double work = table.getRowCount() * 0.001 + groups;
        return planner.getCostFactory().makeCost(work, work, 0);
    }
}
