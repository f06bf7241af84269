package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A fused filter + group-by aggregation over a file: {@code SELECT g, COUNT(*), COUNT(c), SUM(c),
 * MIN(c), MAX(c) ... WHERE filter GROUP BY g} in one pass over the chunks.
 *
 * <p>Rows are selected by the filter, whose leaves are evaluated natively (dictionary leaves by
 * code, see {@link PredicateEvaluator}). When the native kernel computes every aggregate (counts,
 * integer SUM/MIN/MAX, float MIN/MAX, float SUM without GROUP BY) the filter is prepared once per scan ({@link PreparedFilter}) and each
 * chunk is selected and aggregated in one native call, no bitmap crossing; otherwise the chunk's
 * selection comes to Java for the aggregates computed here. Dictionary-encoded group columns are
 * grouped by code (several of them by composite codes, natively): each group key is decoded once
 * per chunk, never per row. Several group columns mixing dictionaries with integer and date
 * columns are grouped natively by their values ({@link KeyValues}). Java groups row by row only
 * where the native kernel declines: one group column that is not dictionary-encoded (a group key
 * function applies to it), or a group column of another type among several. SQL semantics: COUNT(c) skips nulls, SUM/MIN/MAX of no non-null value is
 * null, a null key is its own group (over several columns, each combination of null and non-null
 * values); without GROUP BY there is exactly one group.
 */
public final class GroupAggregate {
    /** Aggregate functions (AVG is SUM / COUNT, computed by the caller). */
    public enum Function { COUNT_STAR, COUNT, SUM, MIN, MAX }

    /** One aggregate: a function and its column (null for COUNT(*)). */
    public record Aggregate(Function function, String column) {
        public Aggregate {
            Objects.requireNonNull(function, "function");
            if (function != Function.COUNT_STAR) {
                Objects.requireNonNull(column, "column");
            }
        }

        /** {@code COUNT(*)}. */
        public static Aggregate countStar() {
            return new Aggregate(Function.COUNT_STAR, null);
        }

        /** {@code function(column)}. */
        public static Aggregate of(Function function, String column) {
            return new Aggregate(function, column);
        }

        @Override
        public String toString() {
            return function == Function.COUNT_STAR ? "COUNT(*)" : function + "(" + column + ")";
        }
    }

    /** The groups, in first-seen order, and their aggregate values. */
    public static final class Result {
        /** Per group: its key, a {@link KeyTuple} over several group columns. */
        private final List<Object> keys;
        private final List<Object[]> values;
        private final int width;

        Result(List<Object> keys, List<Object[]> values, int width) {
            this.keys = keys;
            this.values = values;
            this.width = width;
        }

        /** Number of groups. */
        public int size() {
            return keys.size();
        }

        /** Number of group columns. */
        public int width() {
            return width;
        }

        /**
         * The key of group {@code g}: the group column's value (null for the null group, and
         * without GROUP BY); over several group columns the list of their values.
         */
        public Object key(int g) {
            Object k = keys.get(g);
            return k instanceof KeyTuple t ? t.asList() : k;
        }

        /** The value of group column {@code k} for group {@code g} (null for a null key). */
        public Object key(int g, int k) {
            Objects.checkIndex(k, width);
            Object key = keys.get(g);
            return key instanceof KeyTuple t ? t.get(k) : key;
        }

        /** The internal key of group {@code g}: its value, or its {@link KeyTuple}. */
        Object groupKey(int g) {
            return keys.get(g);
        }

        /** The value of aggregate {@code a} for group {@code g}: Long for counts, etc. */
        public Object value(int g, int a) {
            return values.get(g)[a];
        }
    }

    private GroupAggregate() {}

    /**
     * Runs the aggregation. {@code groupBy} and {@code filter} may be null. SUM takes numeric
     * columns (Long for integers up to u32, BigDecimal for u64 and decimals, Double for floats);
     * MIN and MAX take any readable column.
     */
    public static Result run(VortexFile file, String groupBy, Predicate filter, List<Aggregate> aggregates) {
        return run(file, groupBy, null, filter, aggregates);
    }

    /**
     * Runs the aggregation grouped by the columns {@code groupBy} (none: one group); see {@link
     * Result#key(int, int)} for the keys.
     */
    public static Result runGrouped(VortexFile file, List<String> groupBy, Predicate filter, List<Aggregate> aggregates) {
        return run(file, groupBy, null, filter, aggregates);
    }

    /**
     * Runs the aggregation grouped by {@code groupKey} of the {@code groupBy} column's values: each
     * value (as {@link Values#valueAt} gives it, null for a null row) is mapped to its group key,
     * and values with equal keys form one group. On a dictionary-encoded column the key is
     * computed at most once per dictionary entry (and once for null), only for entries some
     * selected row holds, and cached across the chunks sharing the dictionary; elsewhere once per
     * row. An exception {@code groupKey} throws propagates unchanged, from the first selected row
     * (in row order) whose value it fails on. {@code groupKey} null is the identity.
     */
    public static Result run(VortexFile file, String groupBy, java.util.function.Function<Object, Object> groupKey,
            Predicate filter, List<Aggregate> aggregates) {
        return run(file, groupBy == null ? List.of() : List.of(groupBy), groupKey, filter, aggregates);
    }

    private static Result run(VortexFile file, List<String> groupBy, java.util.function.Function<Object, Object> groupKey,
            Predicate filter, List<Aggregate> aggregates) {
        Set<String> columns = new LinkedHashSet<>(groupBy);
        for (Aggregate a : aggregates) {
            if (a.column() != null) {
                columns.add(a.column());
            }
        }
        if (filter != null) {
            columns.addAll(filter.columns());
        }
        if (columns.isEmpty()) {
            // COUNT(*) alone: any column will do for counting rows.
            columns.add(file.schema().field(0).name());
        }
        for (String c : columns) {
            if (file.schema().indexOf(c) < 0) {
                throw new VortexException(file.location() + ": unknown column '" + c + "'");
            }
        }
        // Zone maps (where the file has them) skip chunks the filter rules out.
        try (Scan scan = file.scan(new ArrayList<>(columns), filter)) {
            return ChunkAggregation.aggregate(scan, scan.chunkFilter(), file.schema(), groupBy, groupKey, aggregates);
        }
    }

    /**
     * Runs the aggregation over a dataset: each of its splits for {@code filter} (files pruned by
     * partition values and zone maps first) is aggregated on its own, up to {@code threads} at once
     * ({@link io.vortex4j.reader.exec.SplitExecutor}, under the calling thread's {@link
     * Cancellation}), and the partial results are merged in split order: counts and integer sums
     * exactly (a 64-bit overflow is an error), MIN/MAX as over one file, groups in first-seen
     * order. Floating-point sums add the per-split sums in split order, so the answer depends on
     * the dataset's splits but never on {@code threads}; it may differ in the last bits from a
     * row-by-row sum. The aggregates' columns and the filter's non-partition columns must be file
     * columns ({@link VortexDataset#fileSchema()}); {@code groupBy} may also be a partition
     * column (without {@code groupKey}), and the filter may test partition columns.
     */
    public static Result run(VortexDataset dataset, String groupBy, java.util.function.Function<Object, Object> groupKey,
            Predicate filter, List<Aggregate> aggregates, int threads) {
        return DatasetAggregation.run(dataset, groupBy == null ? List.of() : List.of(groupBy), groupKey, filter,
                aggregates, threads);
    }

    /**
     * {@link #run(VortexDataset, String, java.util.function.Function, Predicate, List, int)} grouped
     * by the columns {@code groupBy} (none: one group): file columns and partition columns (a
     * split's partition values are its rows' keys), merged by their values across splits and
     * files; see {@link Result#key(int, int)} for the keys.
     */
    public static Result runGrouped(VortexDataset dataset, List<String> groupBy, Predicate filter,
            List<Aggregate> aggregates, int threads) {
        return DatasetAggregation.run(dataset, groupBy, null, filter, aggregates, threads);
    }

    /** {@link #run(VortexDataset, String, java.util.function.Function, Predicate, List, int)} without a key function. */
    public static Result run(VortexDataset dataset, String groupBy, Predicate filter, List<Aggregate> aggregates,
            int threads) {
        return run(dataset, groupBy, null, filter, aggregates, threads);
    }
}
