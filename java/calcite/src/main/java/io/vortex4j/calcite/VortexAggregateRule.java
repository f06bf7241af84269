package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.validate.SqlConformance;

/**
 * {@code Aggregate(LogicalVortexScan)}, when the scan's filter was pushed whole (no Filter left
 * between them), group columns of the files or partition columns (any number) and only COUNT(*),
 * COUNT(c), SUM(c), $SUM0(c), MIN(c), MAX(c) without DISTINCT or FILTER → a {@link
 * LogicalVortexAggregate} ({@link VortexRules#AGGREGATE}). The same over {@code
 * Project(LogicalVortexScan)}, whose group may be an expression of one string column (e.g. {@code
 * GROUP BY UPPER(sym)}), computed by Calcite's own code once per dictionary entry ({@link
 * VortexRules#AGGREGATE_PROJECT}).
 */
final class VortexAggregateRule extends RelRule<VortexRuleConfig> {
    VortexAggregateRule(VortexRuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        LogicalProject project = call.rels.length == 3 ? call.rel(1) : null;
        LogicalVortexScan scan = call.rel(call.rels.length - 1);
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE
                || aggregate.getRowType().getFieldCount() == 0 || readsPaths(scan)) {
            return;
        }
        // The aggregate's input fields: columns of the scan, or (through a projection) expressions of them.
        IntFunction<VortexColumn> column = i -> project == null ? scan.column(i)
                : project.getProjects().get(i) instanceof RexInputRef ref ? scan.column(ref.getIndex()) : null;
        // Group columns (file or partition columns), or a single expression of a string column.
        List<VortexAggregateSpec.Group> keys = new ArrayList<>();
        for (int g : aggregate.getGroupSet()) {
            VortexColumn c = column.apply(g);
            VortexAggregateSpec.Group key = c != null ? (groupable(c) ? VortexAggregateSpec.Group.of(c) : null)
                    : aggregate.getGroupCount() == 1
                    ? expressionGroup(project.getProjects().get(g), scan, StatementConformance.of(call.getPlanner())) : null;
            if (key == null) {
                return;
            }
            keys.add(key);
        }
        List<VortexAggregateSpec.Call> calls = new ArrayList<>();
        for (AggregateCall ac : aggregate.getAggCallList()) {
            VortexAggregateSpec.Call c = pushable(ac, column);
            if (c == null) {
                return;
            }
            calls.add(c);
        }
        Double groups = call.getMetadataQuery().getRowCount(aggregate);
        call.transformTo(new LogicalVortexAggregate(scan.getCluster(), scan.getTable(), scan.vortexTable,
                scan.filter, keys, calls, aggregate.getRowType(), groups == null ? 1 : Math.max(1, groups)));
    }

    /**
     * Whether {@code scan} reads or filters struct fields by path, which the reader's
     * aggregation does not take: such aggregates stay with Calcite over the scan.
     */
    static boolean readsPaths(LogicalVortexScan scan) {
        for (int i = 0; i < scan.fields.length; i++) {
            if (scan.column(i).isPath()) {
                return true;
            }
        }
        if (scan.filter != null) {
            for (String c : scan.filter.columns()) {
                if (scan.vortexTable.dataset().schema().indexOf(c) < 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Grouping by {@code expr}, an expression of one string column of {@code scan} that cannot
     * throw ({@link OneColumnExpressions#cannotThrow}): its key is Calcite's own code for it,
     * computed once per dictionary entry ({@link ColumnExpression}). Null when not possible.
     */
    static VortexAggregateSpec.Group expressionGroup(RexNode expr, LogicalVortexScan scan,
            SqlConformance conformance) {
        ColumnExpression key = ColumnExpression.ofStringColumn(scan.getCluster().getRexBuilder(), expr,
                scan::column, conformance);
        if (key == null || key.column().isPartition()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < scan.fields.length; i++) {
            names.add(scan.column(i).name());
        }
        return new VortexAggregateSpec.Group(key.column(), key, ExpressionText.of(expr, names));
    }

    /**
     * Whether grouping by the reader's values of {@code c} forms the same groups as Calcite's
     * values: not for TIME/TIMESTAMP finer than milliseconds, which Calcite truncates.
     */
    static boolean groupable(VortexColumn c) {
        DataType.Kind k = c.kind();
        if (k == DataType.Kind.TIME || k == DataType.Kind.TIMESTAMP) {
            DataType.TimeUnit u = c.type().unit();
            return u == DataType.TimeUnit.SECONDS || u == DataType.TimeUnit.MILLISECONDS;
        }
        return true;
    }

    /** The pushed form of {@code ac}, or null when the reader would not give Calcite's answer. */
    static VortexAggregateSpec.Call pushable(AggregateCall ac, IntFunction<VortexColumn> column) {
        if (ac.isDistinct() || ac.filterArg >= 0 || !ac.getCollation().getFieldCollations().isEmpty()
                || !ac.rexList.isEmpty() || ac.ignoreNulls()) {
            return null;
        }
        SqlKind kind = ac.getAggregation().getKind();
        List<Integer> args = ac.getArgList();
        org.apache.calcite.sql.type.SqlTypeName resultType = ac.getType().getSqlTypeName();
        int scale = ac.getType().getScale();
        if (kind == SqlKind.COUNT && args.isEmpty()) {
            return new VortexAggregateSpec.Call(VortexAggregateSpec.Function.COUNT_STAR, null, resultType, scale);
        }
        if (args.size() != 1) {
            return null;
        }
        VortexColumn c = column.apply(args.get(0));
        if (c == null || c.isPartition()) {
            return null; // the reader aggregates file columns; a partition column's values are its folders'
        }
        DataType.Kind k = c.kind();
        switch (kind) {
            case COUNT:
                return new VortexAggregateSpec.Call(VortexAggregateSpec.Function.COUNT, c, resultType, scale);
            case SUM:
            case SUM0: {
                // Integers and decimals sum exactly; doubles in row order as Calcite does; REAL is
                // summed in float by Calcite, which the reader's double sum would not reproduce.
                boolean ok = k.isInteger() || k == DataType.Kind.DECIMAL || k == DataType.Kind.FLOAT64;
                if (!ok) {
                    return null;
                }
                switch (resultType) {
                    case TINYINT: case SMALLINT: case INTEGER: case BIGINT: case DOUBLE: case DECIMAL:
                        break;
                    default:
                        return null;
                }
                if ((resultType == org.apache.calcite.sql.type.SqlTypeName.DOUBLE) != (k == DataType.Kind.FLOAT64)) {
                    return null;
                }
                return new VortexAggregateSpec.Call(kind == SqlKind.SUM ? VortexAggregateSpec.Function.SUM
                        : VortexAggregateSpec.Function.SUM0, c, resultType, scale);
            }
            case MIN:
            case MAX: {
                // Calcite orders strings by UTF-16 unit (the reader by code point) and ignores NaN
                // order-dependently; those stay with Calcite.
                if (k == DataType.Kind.UTF8 || k == DataType.Kind.FLOAT16 || k == DataType.Kind.FLOAT32
                        || k == DataType.Kind.FLOAT64 || k == DataType.Kind.NULL) {
                    return null;
                }
                return new VortexAggregateSpec.Call(kind == SqlKind.MIN ? VortexAggregateSpec.Function.MIN
                        : VortexAggregateSpec.Function.MAX, c, resultType, scale);
            }
            default:
                return null;
        }
    }
}
