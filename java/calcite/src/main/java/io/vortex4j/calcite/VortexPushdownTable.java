package io.vortex4j.calcite;

import io.vortex4j.reader.dataset.VortexDataset;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.schema.TranslatableTable;

/**
 * A Vortex table with push-down: Calcite plans it as a {@link LogicalVortexScan}, into which the
 * rules of {@link VortexRules} push projections, the exactly translatable part of filters (as a
 * reader {@link io.vortex4j.reader.predicate.Predicate}) and simple aggregations ({@link
 * VortexAggregateScan}, run by the reader's fused {@link io.vortex4j.reader.compute.GroupAggregate}).
 * Whatever cannot be pushed stays in Calcite's plan, so answers are always Calcite's.
 */
public final class VortexPushdownTable extends VortexTable implements TranslatableTable {
    /** The dataset {@code dataset} as the table {@code name}. */
    VortexPushdownTable(String name, VortexDataset dataset, int threads) {
        super(name, dataset, threads);
    }

    /** A scan of every column, without filter; the rules then push into it. */
    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        int[] all = new int[columns().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return new LogicalVortexScan(context.getCluster(), relOptTable, this, all, null);
    }
}
