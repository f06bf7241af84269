package io.vortex4j.calcite;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.SplitExecutor;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * What a {@link VortexAggregateScan} computes: a filter, group columns (or one expression) and a
 * list of aggregates, run by the reader's fused {@link GroupAggregate}. Handed to the generated code of
 * a query, which calls {@link #enumerable(DataContext)}; results are converted to the SQL types
 * of the aggregate calls.
 */
public final class VortexAggregateSpec {
    /** The aggregate functions that can be pushed. */
    enum Function { COUNT_STAR, COUNT, SUM, SUM0, MIN, MAX }

    /** One pushed aggregate call: the function, its column and the SQL type of the result. */
    record Call(Function function, VortexColumn column, SqlTypeName resultType, int resultScale) {
        GroupAggregate.Aggregate toReader() {
            switch (function) {
                case COUNT_STAR: return GroupAggregate.Aggregate.countStar();
                case COUNT: return GroupAggregate.Aggregate.of(GroupAggregate.Function.COUNT, column.name());
                case SUM:
                case SUM0: return GroupAggregate.Aggregate.of(GroupAggregate.Function.SUM, column.name());
                case MIN: return GroupAggregate.Aggregate.of(GroupAggregate.Function.MIN, column.name());
                default: return GroupAggregate.Aggregate.of(GroupAggregate.Function.MAX, column.name());
            }
        }

        @Override
        public String toString() {
            String arg = column == null ? "*" : column.name();
            return (function == Function.COUNT_STAR ? "COUNT" : function == Function.SUM0 ? "$SUM0" : function.name())
                    + "(" + arg + ")";
        }
    }

    /**
     * The group of a pushed aggregation: a column's values, or with {@code key} the value of an
     * expression of the column (Calcite's own code, computed once per dictionary entry; entries
     * with equal keys form one group). {@code text} is the group as EXPLAIN shows it.
     */
    record Group(VortexColumn column, ColumnExpression key, String text) {
        /** Grouping by the column's own values. */
        static Group of(VortexColumn column) {
            return new Group(column, null, column.name());
        }

        /** The group key of a result row, in Calcite's representation. */
        Object calciteKey(Object readerKey) {
            return key == null ? column.fromReaderValue(readerKey) : readerKey;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    final VortexTable table;
    final Predicate filter;
    /** The group columns, or one group expression; empty without GROUP BY. */
    final List<Group> keys;
    final List<Call> calls;
    final boolean scalar;

    VortexAggregateSpec(VortexTable table, Predicate filter, List<Group> keys, List<Call> calls, boolean scalar) {
        this.table = table;
        this.filter = filter;
        this.keys = List.copyOf(keys);
        this.calls = List.copyOf(calls);
        this.scalar = scalar;
    }

    /**
     * The result rows, the filter's parameters bound from {@code root}; called by generated code.
     * The aggregation runs when first enumerated, once per execution.
     */
    public Enumerable<Object> enumerable(DataContext root) {
        Predicate boundFilter = filter == null || root == null ? filter : VortexScanSpec.bindParameters(filter, root);
        VortexAggregateSpec bound = boundFilter == filter ? this
                : new VortexAggregateSpec(table, boundFilter, keys, calls, scalar);
        Cancellation cancellation = VortexScanSpec.cancellation(root);
        return new AbstractEnumerable<Object>() {
            /**
             * The rows, aggregated for the first enumerator: the inner side of a nested-loop join
             * (a comparison with a scalar sub-query) is enumerated once per outer row.
             */
            private List<Object> rows;

            @Override
            public Enumerator<Object> enumerator() {
                if (rows == null) {
                    // Every scan the aggregation opens checks the statement's cancel flag and timeout.
                    rows = cancellation.call(bound::rows);
                }
                return Linq4j.enumerator(rows);
            }
        };
    }

    /** Runs the aggregation and returns the rows (group keys first, then the aggregates). */
    List<Object> rows() {
        List<Object> out = new ArrayList<>();
        int w = keys.size();
        int width = w + calls.size();
        if (keys.isEmpty() && !calls.isEmpty() && calls.stream().allMatch(c -> c.function == Function.COUNT_STAR)) {
            // COUNT(*) alone: the file's row count, or the filter's selections counted chunk by chunk.
            Object[] row = new Object[width];
            java.util.Arrays.fill(row, filter == null ? table.dataset().rowCount() : countSelected());
            out.add(scalar ? row[0] : row);
            return out;
        }
        List<GroupAggregate.Aggregate> aggs = new ArrayList<>();
        for (Call c : calls) {
            aggs.add(c.toReader());
        }
        List<Object[]> groups;
        try {
            Group expression = w == 1 && keys.get(0).key() != null ? keys.get(0) : null;
            GroupAggregate.Result result = expression != null
                    ? GroupAggregate.run(table.dataset(), expression.column().name(), expression.key().groupKey(),
                            readerFilter(filter), aggs, table.threads())
                    : GroupAggregate.runGrouped(table.dataset(), keys.stream().map(k -> k.column().name()).toList(),
                            readerFilter(filter), aggs, table.threads());
            groups = new ArrayList<>(result.size());
            for (int g = 0; g < result.size(); g++) {
                Object[] values = new Object[w + calls.size()];
                for (int k = 0; k < w; k++) {
                    values[k] = result.key(g, k);
                }
                for (int a = 0; a < calls.size(); a++) {
                    values[w + a] = result.value(g, a);
                }
                groups.add(values);
            }
        } catch (VortexException e) {
            if (!hasDecimalSumOfIntegers()) {
                throw e;
            }
            // The reader's sums are exact in 64 bits and report overflow; the SQL type is wider.
            groups = ExactAggregation.run(table.dataset(), keys, readerFilter(filter), calls);
        }
        for (Object[] values : groups) {
            Object[] row = new Object[width];
            for (int k = 0; k < w; k++) {
                row[k] = keys.get(k).calciteKey(values[k]);
            }
            for (int a = 0; a < calls.size(); a++) {
                row[w + a] = convert(calls.get(a), values[w + a]);
            }
            out.add(scalar ? row[0] : row);
        }
        return out;
    }

    /** Whether a call sums an integer column into a DECIMAL, which may outgrow the reader's 64-bit sums. */
    private boolean hasDecimalSumOfIntegers() {
        for (Call c : calls) {
            if ((c.function == Function.SUM || c.function == Function.SUM0) && c.resultType == SqlTypeName.DECIMAL
                    && c.column.kind().isInteger()) {
                return true;
            }
        }
        return false;
    }

    /** The filter as handed to {@link GroupAggregate}. */
    static Predicate readerFilter(Predicate filter) {
        return filter;
    }

    /**
     * How many rows the filter selects: its per-chunk selections counted, no row built, the
     * splits counted side by side on up to {@link VortexTable#threads()} threads; files whose
     * partition values rule the filter out are not opened, chunks whose zone maps rule it out are
     * skipped unread.
     */
    private long countSelected() {
        VortexDataset dataset = table.dataset();
        List<String> columns = new ArrayList<>();
        for (String c : filter.columns()) {
            if (dataset.fileSchema().indexOf(c) >= 0) {
                columns.add(c);
            }
        }
        if (columns.isEmpty()) {
            columns.add(dataset.fileSchema().field(0).name()); // a filter on partition columns only
        }
        List<Long> counts = SplitExecutor.map(VortexDataset.countBatches(dataset.splits(filter), table.threads()),
                table.threads(), batch -> dataset.count(batch, columns, filter));
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /** An aggregate value of the reader as Calcite's value of the call's SQL type. */
    static Object convert(Call call, Object v) {
        switch (call.function) {
            case COUNT_STAR:
            case COUNT:
                return v;
            case MIN:
            case MAX:
                return call.column.fromReaderValue(v);
            default:
                break;
        }
        if (v == null) {
            if (call.function != Function.SUM0) {
                return null;
            }
            v = call.resultType == SqlTypeName.DOUBLE ? (Object) 0d : (Object) 0L;
        }
        switch (call.resultType) {
            case TINYINT:
                return (byte) narrow(call, ((Number) v).longValue(), Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) narrow(call, ((Number) v).longValue(), Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER:
                return (int) narrow(call, ((Number) v).longValue(), Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
                return v instanceof BigDecimal d ? d.longValueExact() : ((Number) v).longValue();
            case DOUBLE:
                return ((Number) v).doubleValue();
            case DECIMAL: {
                BigDecimal d = v instanceof BigDecimal b ? b : v instanceof java.math.BigInteger i ? new BigDecimal(i)
                        : BigDecimal.valueOf(((Number) v).longValue());
                return d.setScale(call.resultScale, RoundingMode.UNNECESSARY);
            }
            default:
                throw new IllegalStateException("unexpected result type " + call.resultType + " of " + call);
        }
    }

    /**
     * The sum if it fits the result type. Calcite's own SUM keeps the argument's type and wraps
     * on overflow; the pushed sum is exact and reports the overflow instead of a wrong answer.
     */
    private static long narrow(Call call, long v, long min, long max) {
        if (v < min || v > max) {
            throw new VortexException(call + " = " + v + " overflows its SQL type " + call.resultType
                    + "; cast the argument to a wider type, e.g. SUM(CAST(x AS BIGINT))");
        }
        return v;
    }
}
