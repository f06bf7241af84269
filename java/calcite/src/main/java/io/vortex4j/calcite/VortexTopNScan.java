package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.exec.SortKey;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
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
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * {@code ORDER BY … LIMIT n [OFFSET m]} inside a Vortex scan: the pushed scan's columns and
 * filter, and the sort, computed by the reader's {@link io.vortex4j.reader.exec.TopN} (best rows
 * per split, merged) instead of Calcite sorting every selected row. Its rows come out sorted
 * (its traits carry the collation). EXPLAIN adds the keys and the row count, e.g. {@code
 * VortexTopNScan(table=[[vortex, trades]], fields=[[ts, price]], filter=[sym = 'NVDA'],
 * topN=[ts DESC, 10])}; NULLS FIRST/LAST is shown where it is not Calcite's default, an offset
 * as {@code OFFSET m}, a JDBC parameter as {@code ?i}.
 *
 * <p>Created by {@link VortexRules#TOP_N} from a Sort over a {@link LogicalVortexScan}.
 */
public final class VortexTopNScan extends VortexScanBase implements EnumerableRel {
    final RelCollation collation;
    final VortexTopNSpec.Bound fetch;
    final VortexTopNSpec.Bound offset;

    VortexTopNScan(RelOptCluster cluster, RelOptTable table, VortexPushdownTable vortexTable, int[] fields,
            Predicate filter, RelCollation collation, VortexTopNSpec.Bound fetch, VortexTopNSpec.Bound offset) {
        super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE).replace(collation), table, vortexTable,
                fields, filter);
        this.collation = collation;
        this.fetch = fetch;
        this.offset = offset;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new VortexTopNScan(getCluster(), getTable(), vortexTable, fields, filter, collation, fetch, offset);
    }

    /**
     * The reader's sort keys: the collation's fields as columns, directions and null placement as
     * Calcite's; TIME/TIMESTAMP finer than milliseconds compared by millisecond (Calcite's value),
     * so that a later key decides between rows of one millisecond.
     */
    List<SortKey> sortKeys() {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation fc : collation.getFieldCollations()) {
            VortexColumn c = column(fc.getFieldIndex());
            DataType.Kind k = c.kind();
            long granule = k == DataType.Kind.TIME || k == DataType.Kind.TIMESTAMP
                    ? Math.max(1, VortexColumn.perMilli(c.type().unit())) : 1;
            keys.add(new SortKey(c.name(), fc.getDirection().isDescending(),
                    fc.nullDirection == RelFieldCollation.NullDirection.FIRST, granule));
        }
        return keys;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        List<String> terms = new ArrayList<>();
        for (RelFieldCollation fc : collation.getFieldCollations()) {
            boolean descending = fc.getDirection().isDescending();
            String term = column(fc.getFieldIndex()).name() + (descending ? " DESC" : "");
            if (fc.nullDirection != fc.getDirection().defaultNullDirection()) {
                term += fc.nullDirection == RelFieldCollation.NullDirection.FIRST ? " NULLS FIRST" : " NULLS LAST";
            }
            terms.add(term);
        }
        String rows = fetch + (offset.parameter() < 0 && offset.value() == 0 ? "" : " OFFSET " + offset);
        return super.explainTerms(pw).item("topN", String.join(", ", terms) + ", " + rows);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        double rows = super.estimateRowCount(mq);
        return fetch.parameter() < 0 ? Math.min(rows, fetch.value()) : rows;
    }

    /** Cheaper than the scan alone, so the planner prefers it to the scan under Calcite's sort. */
    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(0.9);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        // Rows as the scan's: arrays, or bare values for one column.
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY,
                fields.length > 0);
        boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
        VortexTopNSpec spec = new VortexTopNSpec(new VortexScanSpec(vortexTable, fields, filter, scalar), sortKeys(),
                fetch, offset);
        Expression specExpr = implementor.stash(spec, VortexTopNSpec.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(specExpr, "enumerable", implementor.getRootExpression())));
    }
}
