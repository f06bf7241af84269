package io.vortex4j.reader;

import io.vortex4j.VortexException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A fused filter + group-by aggregation over a file: {@code SELECT g, COUNT(*), COUNT(c), SUM(c),
 * MIN(c), MAX(c) ... WHERE filter GROUP BY g} in one pass over the chunks.
 *
 * <p>Rows are selected with the chunk's filter bitmap (dictionary leaves evaluated natively) or,
 * when the filter is one leaf on a dictionary-encoded group column, with its per-code {@link
 * DictFilter} table. A dictionary-encoded group column is grouped by code: each group key is
 * decoded once, never per row. SQL semantics: COUNT(c) skips nulls, SUM/MIN/MAX of no non-null
 * value is null, a null key is its own group; without GROUP BY there is exactly one group.
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
        private final List<Object> keys;
        private final List<Object[]> values;

        Result(List<Object> keys, List<Object[]> values) {
            this.keys = keys;
            this.values = values;
        }

        /** Number of groups. */
        public int size() {
            return keys.size();
        }

        /** The key of group {@code g} (null for the null group, and without GROUP BY). */
        public Object key(int g) {
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
        Set<String> columns = new LinkedHashSet<>();
        if (groupBy != null) {
            columns.add(groupBy);
        }
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
                throw new VortexException(file.path() + ": unknown column '" + c + "'");
            }
        }
        List<String> scanned = new ArrayList<>(columns);
        Groups groups = new Groups(groupBy == null);
        Accumulator[] accs = new Accumulator[aggregates.size()];
        for (int a = 0; a < accs.length; a++) {
            Aggregate agg = aggregates.get(a);
            Field f = agg.column() == null ? null : file.schema().field(agg.column());
            accs[a] = Accumulator.create(agg, f);
        }
        // Zone maps (where the file has them) skip chunks the filter rules out.
        try (Scan scan = file.scan(scanned, filter)) {
            for (Chunk chunk : scan) {
                try (chunk) {
                    aggregateChunk(chunk, groupBy, filter, aggregates, accs, groups);
                }
            }
        }
        List<Object[]> values = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            Object[] row = new Object[accs.length];
            for (int a = 0; a < accs.length; a++) {
                row[a] = accs[a].result(g);
            }
            values.add(row);
        }
        return new Result(groups.keys, values);
    }

    private static void aggregateChunk(Chunk chunk, String groupBy, Predicate filter,
            List<Aggregate> aggregates, Accumulator[] accs, Groups groups) {
        int n = chunk.length();
        Schema schema = chunk.schema();
        Array key = groupBy == null ? null : chunk.column(schema.indexOf(groupBy));
        // A single leaf on the dictionary group column filters by code: no row bitmap needed.
        DictFilter byCode = null;
        Bitmap selection = null;
        if (filter != null) {
            Predicate leaf = filter.normalize();
            if (key instanceof VarBinDictArray && leaf.isLeaf() && leaf.column().equals(groupBy)) {
                byCode = DictFilter.of(chunk, schema.indexOf(groupBy), leaf);
            }
            if (byCode == null) {
                selection = Compute.selection(chunk, filter);
            }
        }
        int[] rows = new int[selection == null ? n : selection.cardinality()];
        int[] gids = new int[rows.length];
        int m;
        chunk.handle().acquire();
        try {
            m = groups.assign(key, n, selection, byCode, rows, gids);
            for (int a = 0; a < accs.length; a++) {
                String c = aggregates.get(a).column();
                accs[a].ensure(groups.size());
                accs[a].add(c == null ? null : chunk.column(schema.indexOf(c)), rows, gids, m);
            }
        } finally {
            chunk.handle().release();
        }
    }

    /** Group keys and the mapping from rows to group ids. */
    private static final class Groups {
        final List<Object> keys = new ArrayList<>();
        final Map<Object, Integer> ids = new HashMap<>();
        final boolean single;

        Groups(boolean single) {
            this.single = single;
            if (single) {
                keys.add(null);
            }
        }

        int size() {
            return keys.size();
        }

        int id(Object key) {
            Object k = key instanceof byte[] ? new Binary((byte[]) key) : key;
            Integer g = ids.get(k);
            if (g == null) {
                g = keys.size();
                keys.add(key);
                ids.put(k, g);
            }
            return g;
        }

        /** Fills the selected rows and their group ids; returns how many. */
        int assign(Array key, int n, Bitmap selection, DictFilter byCode, int[] rows, int[] gids) {
            int m = 0;
            if (key instanceof VarBinDictArray dict) {
                int[] codeGroup = new int[dict.dictionary().length()];
                java.util.Arrays.fill(codeGroup, -1);
                int nullGroup = -1;
                boolean codeNulls = dict.validity != null;
                for (int i = selection == null ? 0 : selection.nextSetBit(0); i >= 0 && i < n;
                        i = selection == null ? i + 1 : selection.nextSetBit(i + 1)) {
                    if (codeNulls && !Array.bit(dict.validity, i)) {
                        if (byCode != null && !byCode.matchesNullCode()) {
                            continue;
                        }
                        if (nullGroup < 0) {
                            nullGroup = id(null);
                        }
                        rows[m] = i;
                        gids[m++] = nullGroup;
                        continue;
                    }
                    int code = dict.codeUnchecked(i);
                    if (byCode != null && !byCode.matchesCode(code)) {
                        continue;
                    }
                    int g = codeGroup[code];
                    if (g < 0) {
                        g = id(Values.valueAt(dict, i));
                        codeGroup[code] = g;
                    }
                    rows[m] = i;
                    gids[m++] = g;
                }
                return m;
            }
            for (int i = selection == null ? 0 : selection.nextSetBit(0); i >= 0 && i < n;
                    i = selection == null ? i + 1 : selection.nextSetBit(i + 1)) {
                rows[m] = i;
                gids[m++] = single ? 0 : id(Values.valueAt(key, i));
            }
            return m;
        }
    }
}
