package io.vortex4j.calcite;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * {@code Sort(LogicalVortexScan)} with a row count ({@code ORDER BY … LIMIT n [OFFSET m]}) over
 * columns of the files → a {@link VortexTopNScan}, the top-n computed inside the scan ({@link
 * VortexRules#TOP_N}).
 */
final class VortexTopNRule extends RelRule<VortexRuleConfig> {
    VortexTopNRule(VortexRuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalSort sort = call.rel(0);
        LogicalVortexScan scan = call.rel(1);
        RelCollation collation = sort.getCollation();
        VortexTopNSpec.Bound fetch = bound(sort.fetch);
        VortexTopNSpec.Bound offset = sort.offset == null ? VortexTopNSpec.Bound.constant(0) : bound(sort.offset);
        if (collation.getFieldCollations().isEmpty() || fetch == null || offset == null) {
            return; // no order (a plain LIMIT), no row count, or one given by an expression
        }
        for (RelFieldCollation fc : collation.getFieldCollations()) {
            RelFieldCollation.Direction d = fc.getDirection();
            if (d != RelFieldCollation.Direction.ASCENDING && d != RelFieldCollation.Direction.DESCENDING
                    || !sortable(scan.column(fc.getFieldIndex()))) {
                return;
            }
        }
        call.transformTo(new VortexTopNScan(scan.getCluster(), scan.getTable(), scan.vortexTable, scan.fields,
                scan.filter, collation, fetch, offset));
    }

    /** A literal or JDBC parameter row count or offset; null for anything else. */
    private static VortexTopNSpec.Bound bound(RexNode n) {
        if (n instanceof RexDynamicParam p) {
            return new VortexTopNSpec.Bound(0, p.getIndex());
        }
        if (n instanceof RexLiteral l) {
            Number v = l.getValueAs(java.math.BigDecimal.class);
            return v == null || v.longValue() < 0 ? null : VortexTopNSpec.Bound.constant(v.longValue());
        }
        return null;
    }

    /**
     * Whether the reader orders {@code c}'s values as Calcite orders its internal values (the
     * natural order of Long, Double, String, BigDecimal, ...; see {@link
     * io.vortex4j.reader.exec.TopN}): every file column but nested ones and dtypes the reader does
     * not read. TIME/TIMESTAMP finer than milliseconds are ordered by millisecond, as Calcite
     * sees them ({@link VortexTopNScan#sortKeys}).
     */
    static boolean sortable(VortexColumn c) {
        switch (c.kind()) {
            case STRUCT:
            case LIST:
            case FIXED_SIZE_LIST:
            case UNSUPPORTED:
                return false;
            default:
                return !c.isPartition();
        }
    }
}
