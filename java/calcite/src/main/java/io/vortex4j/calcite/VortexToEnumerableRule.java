package io.vortex4j.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;

/**
 * Makes a {@link LogicalVortexScan} an enumerable {@link VortexTableScan} and a {@link
 * LogicalVortexAggregate} an enumerable {@link VortexAggregateScan} ({@link
 * VortexRules#SCAN_TO_ENUMERABLE}, {@link VortexRules#AGGREGATE_TO_ENUMERABLE}).
 */
final class VortexToEnumerableRule extends ConverterRule {
    VortexToEnumerableRule(ConverterRule.Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        if (rel instanceof LogicalVortexScan s) {
            return new VortexTableScan(s.getCluster(), s.getTable(), s.vortexTable, s.fields, s.filter);
        }
        LogicalVortexAggregate a = (LogicalVortexAggregate) rel;
        return new VortexAggregateScan(a.getCluster(), a.getTable(), a.vortexTable, a.filter, a.keys, a.calls,
                a.outputType, a.groups);
    }
}
