package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * What the logical and the enumerable scans of a Vortex table share: the table columns read
 * ({@code fields}) and the pushed filter, their row type, cost and EXPLAIN terms.
 */
abstract class VortexScanBase extends TableScan {
    /** Assumed fraction of rows a pushed filter keeps, for costing. */
    static final double FILTER_SELECTIVITY = 0.25;

    final VortexPushdownTable vortexTable;
    final int[] fields;
    final Predicate filter;

    VortexScanBase(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, VortexPushdownTable vortexTable,
            int[] fields, Predicate filter) {
        super(cluster, traits, List.of(), table);
        this.vortexTable = vortexTable;
        this.fields = fields.clone();
        this.filter = filter;
    }

    /** The table column (or struct field, {@link VortexTable#pathColumn}) produced as output field {@code i}. */
    VortexColumn column(int i) {
        return vortexTable.column(fields[i]);
    }

    @Override
    public RelDataType deriveRowType() {
        List<RelDataTypeField> all = table.getRowType().getFieldList();
        RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
        for (int f : fields) {
            if (f < all.size()) {
                b.add(all.get(f));
            } else {
                String path = vortexTable.column(f).name();
                b.add(path, FieldPaths.type(getCluster().getRexBuilder(), table.getRowType(), path));
            }
        }
        return b.build();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        List<String> names = new ArrayList<>();
        for (int f : fields) {
            names.add(vortexTable.column(f).name());
        }
        return SplitsExplained.explain(super.explainTerms(pw)
                .item("fields", names)
                .itemIf("filter", filter, filter != null), vortexTable, filter);
    }

    @Override
    public void register(RelOptPlanner planner) {
        for (RelOptRule rule : VortexRules.rules()) {
            planner.addRule(rule);
        }
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        double rows = table.getRowCount();
        return filter == null ? rows : rows * FILTER_SELECTIVITY;
    }

    /**
     * Cheaper with fewer columns (a struct weighs its fields, so reading one field by path costs
     * less than the struct) and with a pushed filter, so that the planner prefers pushing both
     * into the scan.
     */
    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = table.getRowCount();
        double read = 0;
        for (int f : fields) {
            read += FieldPaths.weight(vortexTable.column(f).type());
        }
        double all = 0;
        for (VortexColumn c : vortexTable.columns()) {
            all += FieldPaths.weight(c.type());
        }
        double columnFactor = (read + 2d) / (all + 2d);
        double work = rows * columnFactor * (filter == null ? 1 : 0.5);
        return planner.getCostFactory().makeCost(work, work + 1, 0);
    }
}
