package io.vortex4j.reader.compute;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.compute.GroupAggregate.Result;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-chunk work of a {@link GroupAggregate}: the chunk's rows selected, grouped ({@link
 * Groups}) and aggregated ({@link Accumulator}), natively where the kernel takes the aggregates
 * (its partial results merged into the groups here), in Java for the rest.
 */
final class ChunkAggregation {
    private ChunkAggregation() {}

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
}
