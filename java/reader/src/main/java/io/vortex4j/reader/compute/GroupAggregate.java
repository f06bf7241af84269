package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Unchecked;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
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
                throw new VortexException(file.path() + ": unknown column '" + c + "'");
            }
        }
        // Zone maps (where the file has them) skip chunks the filter rules out.
        try (Scan scan = file.scan(new ArrayList<>(columns), filter)) {
            return aggregate(scan, scan.chunkFilter(), file.schema(), groupBy, groupKey, aggregates);
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

    /** The aggregation of {@code chunks}, rows selected by {@code filter} (null: every row). */
    static Result aggregate(Iterable<Chunk> chunks, Predicate filter, Schema schema, List<String> groupBy,
            java.util.function.Function<Object, Object> groupKey, List<Aggregate> aggregates) {
        if (groupKey != null && groupBy.size() != 1) {
            throw new IllegalArgumentException("a group key function takes one group column");
        }
        Groups groups = new Groups(groupBy.size(), groupKey);
        Accumulator[] accs = new Accumulator[aggregates.size()];
        for (int a = 0; a < accs.length; a++) {
            Aggregate agg = aggregates.get(a);
            Field f = agg.column() == null ? null : schema.field(agg.column());
            accs[a] = Accumulator.create(agg, f, !groupBy.isEmpty());
        }
        for (Chunk chunk : chunks) {
            try (chunk) {
                aggregateChunk(chunk, groupBy, filter, aggregates, accs, groups);
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
        return new Result(groups.keys, values, groupBy.size());
    }

    private static void aggregateChunk(Chunk chunk, List<String> groupBy, Predicate filter,
            List<Aggregate> aggregates, Accumulator[] accs, Groups groups) {
        int n = chunk.length();
        Schema schema = chunk.schema();
        int[] keyColumns = new int[groupBy.size()];
        for (int k = 0; k < keyColumns.length; k++) {
            keyColumns[k] = schema.indexOf(groupBy.get(k));
        }
        NativeAggregates spec = new NativeAggregates(schema, aggregates, accs);
        if (filter != null && spec.all() && (spec.count() > 0 || keyColumns.length > 0)
                && PredicateEvaluator.isDictFilterEnabled() && !chunk.selectionMemo().containsKey(filter)) {
            // Every aggregate is native: select and aggregate in one native call, no bitmap crossing.
            PreparedFilter prepared = chunk.scan().prepared(filter);
            Object r = prepared == null ? null : prepared.aggregate(chunk, keyColumns, spec.funcs, spec.columns, spec.starts(accs));
            if (r instanceof Object[] result) {
                mergeNative(chunk, keyColumns, result, spec, accs, groups, () -> Compute.selection(chunk, filter));
                return;
            }
            if (r instanceof long[] words) {
                chunk.selectionMemo().putIfAbsent(filter, new Bitmap(words, n));
            }
        }
        Bitmap selection = filter == null ? null : Compute.selection(chunk, filter);
        int selected = selection == null ? n : selection.cardinality();
        if (selected == 0) {
            return;
        }
        boolean[] done = aggregateNatively(chunk, keyColumns, selection, spec, accs, groups);
        boolean rest = done == null;
        for (int a = 0; done != null && a < done.length; a++) {
            rest |= !done[a];
        }
        if (!rest) {
            return;
        }
        Array[] keys = new Array[keyColumns.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = chunk.column(keyColumns[k]);
        }
        int[] rows = new int[selected];
        int[] gids = new int[selected];
        chunk.handle().acquire();
        try {
            int m = groups.assign(keys, n, selection, rows, gids);
            for (int a = 0; a < accs.length; a++) {
                if (done != null && done[a]) {
                    continue;
                }
                String c = aggregates.get(a).column();
                accs[a].ensure(groups.size());
                accs[a].add(c == null ? null : chunk.column(schema.indexOf(c)), rows, gids, m);
            }
        } finally {
            chunk.handle().release();
        }
    }

    /** The aggregates the native kernel computes ({@link Accumulator#isNative}), as it takes them. */
    private static final class NativeAggregates {
        /** Index of each native aggregate among all. */
        final int[] which;
        final int[] funcs;
        final int[] columns;
        private final int total;

        NativeAggregates(Schema schema, List<Aggregate> aggregates, Accumulator[] accs) {
            int count = 0;
            for (Accumulator acc : accs) {
                count += acc.isNative() ? 1 : 0;
            }
            which = new int[count];
            funcs = new int[count];
            columns = new int[count];
            total = accs.length;
            for (int a = 0, k = 0; a < accs.length; a++) {
                if (accs[a].isNative()) {
                    Aggregate agg = aggregates.get(a);
                    which[k] = a;
                    funcs[k] = agg.function().ordinal();
                    columns[k++] = agg.column() == null ? -1 : schema.indexOf(agg.column());
                }
            }
        }

        int count() {
            return which.length;
        }

        /** Per native aggregate, the float sum so far its chunk continues ({@link Accumulator#nativeStart}). */
        double[] starts(Accumulator[] accs) {
            double[] starts = new double[which.length];
            for (int k = 0; k < starts.length; k++) {
                starts[k] = accs[which[k]].nativeStart();
            }
            return starts;
        }

        boolean all() {
            return which.length == total;
        }
    }

    /**
     * Groups the chunk's selected rows natively (by code) and computes the aggregates the native
     * kernel takes ({@link Accumulator#isNative}), merging them; returns which aggregates were
     * done, or null when the native kernel did not take the chunk (then nothing was grouped).
     */
    private static boolean[] aggregateNatively(Chunk chunk, int[] keyColumns, Bitmap selection,
            NativeAggregates spec, Accumulator[] accs, Groups groups) {
        if (spec.count() == 0 && keyColumns.length == 0) {
            return null; // nothing to group, nothing native to compute
        }
        Object[] result;
        long h = chunk.handle().acquire();
        try {
            result = io.vortex4j.reader.internal.Native.aggregateChunk(h, keyColumns,
                    selection == null ? null : selection.words(), spec.funcs, spec.columns, spec.starts(accs));
        } finally {
            chunk.handle().release();
        }
        if (result == null) {
            return null;
        }
        return mergeNative(chunk, keyColumns, result, spec, accs, groups, () -> selection);
    }

    /**
     * Merges a chunk's native partials ({@code Native.aggregateChunk}'s result) into the groups
     * and accumulators; returns which aggregates were done. {@code selection} gives the chunk's
     * selection (null: every row), needed only to report a failing key function.
     */
    private static boolean[] mergeNative(Chunk chunk, int[] keyColumns, Object[] result, NativeAggregates spec,
            Accumulator[] accs, Groups groups, java.util.function.Supplier<Bitmap> selection) {
        boolean[] done = new boolean[accs.length];
        int n = Math.toIntExact(((long[]) result[0])[0]);
        long[] rowsPerGroup = (long[]) result[1];
        VarBinDictArray.Dictionary[] dictionaries = new VarBinDictArray.Dictionary[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            dictionaries[k] = chunk.dictionary(keyColumns[k]);
        }
        if (keyColumns.length == 1) {
            groups.checkKeys(chunk, keyColumns[0], dictionaries[0], rowsPerGroup, selection);
        }
        long[] codes = (long[]) result[2];
        // Keys mixing dictionaries and integer columns come as values per group, after the aggregates.
        KeyValues byValues = result.length > 3 + 2 * spec.count()
                ? new KeyValues(chunk, keyColumns, dictionaries, result, 3 + 2 * spec.count()) : null;
        int[] gid = new int[n];
        for (int c = 0; c < n; c++) {
            if (rowsPerGroup[c] == 0) {
                gid[c] = -1;
            } else if (keyColumns.length == 0) {
                gid[c] = 0;
            } else if (keyColumns.length == 1) {
                // The last group is the null key; the others are dictionary entries, keyed once.
                gid[c] = groups.idOfCode(dictionaries[0], c == n - 1 ? -1 : c);
            } else if (byValues != null) {
                gid[c] = groups.id(byValues.key(c));
            } else {
                gid[c] = groups.idOfCodes(dictionaries, codes[c]);
            }
        }
        for (int k = 0; k < spec.count(); k++) {
            Accumulator acc = accs[spec.which[k]];
            acc.ensure(groups.size());
            long[] counts = (long[]) result[3 + 2 * k];
            if (result[4 + 2 * k] instanceof double[] floats) {
                for (int c = 0; c < n; c++) {
                    if (gid[c] >= 0) {
                        acc.merge(gid[c], counts[c], floats[c]);
                    }
                }
            } else {
                long[] values = (long[]) result[4 + 2 * k];
                for (int c = 0; c < n; c++) {
                    if (gid[c] >= 0) {
                        acc.merge(gid[c], counts[c], values.length == 0 ? 0 : values[c]);
                    }
                }
            }
            done[spec.which[k]] = true;
        }
        return done;
    }

    /** Group keys and the mapping from rows to group ids. */
    private static final class Groups {
        final List<Object> keys = new ArrayList<>();
        final Map<Object, Integer> ids = new HashMap<>();
        final boolean single;
        /** Number of group columns. */
        final int width;
        /** Maps a value of the group column to its key; null for the identity. */
        final java.util.function.Function<Object, Object> keyOf;

        Groups(int width, java.util.function.Function<Object, Object> keyOf) {
            this.single = width == 0;
            this.width = width;
            this.keyOf = keyOf;
            if (single) {
                keys.add(null);
            }
        }

        int size() {
            return keys.size();
        }

        /** The group of a row whose group column holds {@code value}. */
        int idOfValue(Object value) {
            return id(keyOf == null ? value : keyOf.apply(value));
        }

        /**
         * The group of rows holding entry {@code code} of {@code dictionary} (-1: a null code):
         * a computed key comes from the dictionary's {@link GroupKeys}, computed once per entry.
         */
        int idOfCode(VarBinDictArray.Dictionary dictionary, int code) {
            if (keyOf == null) {
                return id(code < 0 ? null : dictionary.value(code));
            }
            return id(keys(dictionary).key(dictionary, code, keyOf));
        }

        /**
         * The group of rows whose group columns hold the entries of composite code {@code code}
         * ({@code Native.aggregateChunk}): per column, the slot {@code code % (n + 1)} of its
         * dictionary of {@code n} entries, slot {@code n} a null.
         */
        int idOfCodes(VarBinDictArray.Dictionary[] dictionaries, long code) {
            Object[] values = new Object[dictionaries.length];
            for (int k = 0; k < values.length; k++) {
                long radix = dictionaries[k].entries().length() + 1L;
                int slot = (int) Long.remainderUnsigned(code, radix);
                code = Long.divideUnsigned(code, radix);
                values[k] = slot == radix - 1 ? null : dictionaries[k].value(slot);
            }
            return id(new KeyTuple(values));
        }

        private GroupKeys keys(VarBinDictArray.Dictionary dictionary) {
            return EntryCache.holder(dictionary.strings().id(), new EntryCache.Identity(keyOf), GroupKeys::new);
        }

        /**
         * Before natively aggregated groups are keyed: if the key function throws for an entry
         * some selected row holds ({@code rowsPerGroup}: per code, the last the null group),
         * rethrows what it threw for the first such row in row order, as keying row by row would.
         */
        void checkKeys(Chunk chunk, int column, VarBinDictArray.Dictionary dictionary, long[] rowsPerGroup,
                java.util.function.Supplier<Bitmap> selection) {
            if (keyOf == null) {
                return;
            }
            GroupKeys keys = keys(dictionary);
            VarBinArray entries = dictionary.entries();
            int n = entries.length();
            long[] failing = null;
            boolean nullFails = rowsPerGroup[n] > 0 && keys.failure(dictionary, -1, keyOf) != null;
            for (int c = 0; c <= n; c++) {
                // The null group also holds the rows of null entries.
                boolean fails = c == n ? nullFails
                        : entries.isNull(c) ? nullFails
                        : rowsPerGroup[c] > 0 && keys.failure(dictionary, c, keyOf) != null;
                if (fails) {
                    failing = failing != null ? failing : new long[Bitmap.wordsFor(n + 1)];
                    failing[c >>> 6] |= 1L << c;
                }
            }
            if (failing == null) {
                return;
            }
            Bitmap rows = EntryFilter.rows(chunk, column, failing);
            Bitmap selected = selection.get();
            if (selected != null) {
                rows.and(selected);
            }
            int row = rows.nextSetBit(0);
            throw EntryCache.rethrow(keys.failure(dictionary, EntryFilter.code(chunk, column, row), keyOf));
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

        /** Fills the selected rows and their group ids, grouped by {@code keys}; returns how many. */
        int assign(Array[] keys, int n, Bitmap selection, int[] rows, int[] gids) {
            int m = 0;
            if (selection == null) {
                for (int i = 0; i < n; i++) {
                    rows[i] = i;
                }
                m = n;
            } else {
                long[] words = selection.words();
                for (int w = 0; w < words.length; w++) {
                    long bits = words[w];
                    while (bits != 0) {
                        rows[m++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                        bits &= bits - 1;
                    }
                }
            }
            if (single) {
                java.util.Arrays.fill(gids, 0, m, 0);
            } else if (width > 1) {
                for (int k = 0; k < m; k++) {
                    Object[] values = new Object[width];
                    for (int c = 0; c < width; c++) {
                        values[c] = Values.valueAt(keys[c], rows[k]);
                    }
                    gids[k] = id(new KeyTuple(values));
                }
            } else if (keys[0] instanceof VarBinDictArray dict) {
                assignByCode(dict, rows, gids, m);
            } else {
                for (int k = 0; k < m; k++) {
                    gids[k] = idOfValue(Values.valueAt(keys[0], rows[k]));
                }
            }
            return m;
        }

        /**
         * Groups by dictionary code; each code's key is decoded (and computed) once, in row order,
         * so a key function failing on an entry fails at the first row holding it.
         */
        private void assignByCode(VarBinDictArray dict, int[] rows, int[] gids, int m) {
            VarBinDictArray.Dictionary dictionary = new VarBinDictArray.Dictionary(dict.dictionary(), dict.strings());
            int[] codeGroup = new int[dict.dictionary().length()];
            java.util.Arrays.fill(codeGroup, -1);
            int nullGroup = -1;
            for (int k = 0; k < m; k++) {
                int i = rows[k];
                int code = Unchecked.code(dict, i);
                if (code < 0) {
                    if (nullGroup < 0) {
                        nullGroup = idOfCode(dictionary, -1);
                    }
                    gids[k] = nullGroup;
                    continue;
                }
                int g = codeGroup[code];
                if (g < 0) {
                    g = idOfCode(dictionary, code);
                    codeGroup[code] = g;
                }
                gids[k] = g;
            }
        }
    }
}
