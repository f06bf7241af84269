package io.vortex4j.reader.exec;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * {@code ORDER BY keys LIMIT fetch OFFSET offset} inside the scan: each split keeps its best
 * {@code offset + fetch} rows in a bounded heap, split by split side by side on the {@link
 * SplitExecutor}, and the splits' rows are merged. Per chunk only the rows the filter selects
 * (the memoized selection) are considered, their keys read from the typed arrays; a row is built
 * (by the caller's {@link RowBuilder}) only when it is still in its heap once its chunk is done,
 * and the other columns of a chunk are not even exported when none of its rows is. Once a split
 * has filled its heap, splits opened later skip the chunks whose zone maps show no row as good
 * as that heap's last row ({@link TopNPruning}; integer and temporal first keys); for a
 * descending first key the splits are taken last to first, as data is often stored ascending.
 *
 * <p>The order, per key (nulls before or after every value as the key says):
 *
 * <ul>
 *   <li>booleans false before true; integers, dates, times and timestamps by value (raw units,
 *       or floored to the key's {@linkplain SortKey#granule() granule}), unsigned integers as
 *       unsigned; decimals numerically;
 *   <li>floats by {@link Double#compare}: -0.0 before 0.0, NaN after +infinity;
 *   <li>strings by {@link String#compareTo} of the decoded values (UTF-16 code units); binary
 *       values by unsigned bytes, a prefix first.
 * </ul>
 *
 * These are the natural orders of the Java values SQL engines such as Calcite hold. Rows with
 * equal keys come in scan order (split order, then row order), so the answer never depends on the
 * thread count. Sorting by a partition column, or by a struct or list column, is refused.
 */
public final class TopN {
    private TopN() {}

    /**
     * Builds the output row for row {@code row} of a chunk of {@code split}: {@code columns} are
     * the arrays of the requested columns, valid only during the call.
     */
    @FunctionalInterface
    public interface RowBuilder<R> {
        R build(Split split, Array[] columns, int row);
    }

    /**
     * The rows {@code offset} to {@code offset + fetch - 1} of {@code dataset}'s rows where {@code
     * filter} (may be null) holds, ordered by {@code keys}, each built by {@code rows} from
     * {@code columns} (file columns); {@code splits} are the dataset's splits for {@code filter}
     * ({@link VortexDataset#splits}), run on up to {@code threads} threads.
     *
     * @throws VortexException for a key or column that is not a file column, or a key whose
     *     type has no order
     */
    public static <R> List<R> run(VortexDataset dataset, List<Split> splits, List<String> columns, Predicate filter,
            List<SortKey> keys, long offset, long fetch, int threads, RowBuilder<R> rows) {
        if (offset < 0 || fetch < 0) {
            throw new IllegalArgumentException("offset and fetch must not be negative: " + offset + ", " + fetch);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a top-n needs at least one sort key");
        }
        Schema files = dataset.fileSchema();
        Set<String> scanned = new LinkedHashSet<>();
        for (String c : columns) {
            scanned.add(fileColumn(dataset, c));
        }
        for (SortKey k : keys) {
            scanned.add(fileColumn(dataset, k.column()));
        }
        if (filter != null) {
            for (String c : filter.columns()) {
                if (files.indexOf(c) >= 0) {
                    scanned.add(c);
                }
            }
        }
        List<String> scan = new ArrayList<>(scanned);
        Ordering ordering = new Ordering(dataset, keys, scan);
        int[] outputs = new int[columns.size()];
        for (int i = 0; i < outputs.length; i++) {
            outputs[i] = scan.indexOf(columns.get(i));
        }
        if (fetch == 0 || splits.isEmpty()) {
            return List.of();
        }
        int limit = (int) Math.min(Integer.MAX_VALUE - 8, Math.min(offset, Integer.MAX_VALUE) + Math.min(fetch, Integer.MAX_VALUE));
        SortKey first = keys.get(0);
        TopNPruning<Entry> pruning = TopNPruning.of(first, files.field(first.column()).type(), ordering);
        // Splits last to first for a descending first key (data is often stored ascending): the
        // first splits done then hold the best rows, and the others skip chunks by their bound.
        List<Integer> indexes = new ArrayList<>(splits.size());
        for (int i = 0; i < splits.size(); i++) {
            indexes.add(first.descending() ? splits.size() - 1 - i : i);
        }
        List<List<Entry>> tops = SplitExecutor.map(indexes, threads, i -> {
            Split split = splits.get(i);
            Predicate narrowed = pruning == null ? filter : pruning.narrow(filter, e -> e.firstKey);
            try (Scan s = dataset.scan(split, scan, narrowed)) {
                List<Entry> top = top(s, i, limit, ordering, outputs, (cols, row) -> rows.build(split, cols, row),
                        pruning != null);
                if (pruning != null && top.size() == limit) {
                    pruning.offer(Collections.max(top, ordering));
                }
                return top;
            }
        });
        List<Entry> all = new ArrayList<>();
        for (List<Entry> t : tops) {
            all.addAll(t);
        }
        all.sort(ordering);
        List<R> out = new ArrayList<>();
        for (long i = offset; i < all.size() && i - offset < fetch; i++) {
            @SuppressWarnings("unchecked")
            R r = (R) all.get((int) i).row;
            out.add(r);
        }
        return out;
    }

    private static String fileColumn(VortexDataset dataset, String name) {
        if (dataset.fileSchema().indexOf(name) >= 0) {
            return name;
        }
        if (dataset.schema().indexOf(name) >= 0) {
            throw new VortexException(dataset.location() + ": '" + name
                    + "' is a partition column; a top-n reads and orders file columns only");
        }
        throw new VortexException(dataset.location() + ": unknown column '" + name + "'");
    }

    /** Builds a row of the current chunk from the output columns' arrays. */
    @FunctionalInterface
    private interface ChunkRows {
        Object build(Array[] columns, int row);
    }

    /** The best {@code limit} rows of one split's scan, unordered. */
    private static List<Entry> top(Scan scan, int split, int limit, Ordering ordering, int[] outputs, ChunkRows rows,
            boolean keepFirstKey) {
        PriorityQueue<Entry> heap = new PriorityQueue<>(Math.min(limit, 1024) + 1, ordering.reversed());
        Predicate chunkFilter = scan.chunkFilter();
        Array[] keyArrays = new Array[ordering.positions.length];
        boolean[] mayBeNull = new boolean[keyArrays.length];
        while (scan.hasNext()) {
            try (Chunk chunk = scan.next()) {
                int length = chunk.length();
                Bitmap selection = chunkFilter == null ? null : Compute.selection(chunk, chunkFilter);
                int r = selection == null ? (length > 0 ? 0 : -1) : selection.nextSetBit(0);
                if (r < 0) {
                    continue;
                }
                for (int k = 0; k < keyArrays.length; k++) {
                    keyArrays[k] = chunk.column(ordering.positions[k]);
                    mayBeNull[k] = keyArrays[k].mayHaveNulls();
                }
                // Rows are built when the chunk is done, for its entries still kept: in a column
                // sorted against the order asked for, every row enters the heap and most leave it.
                List<Entry> entered = new ArrayList<>();
                int[] selected = selected(selection, length);
                long first = chunk.firstRow();
                for (int j = 0; j < selected.length; j++) {
                    // Backwards for a descending first key: data is often stored ascending (by
                    // time), and then the chunk's best rows come first and the rest is rejected.
                    r = selected[ordering.descending[0] ? selected.length - 1 - j : j];
                    if (heap.size() == limit && ordering.compareRow(keyArrays, mayBeNull, r, first + r, heap.peek()) >= 0) {
                        continue;
                    }
                    Entry e = ordering.entry(keyArrays, r, split, first + r);
                    if (heap.size() == limit) {
                        heap.poll().evicted = true;
                    }
                    heap.add(e);
                    entered.add(e);
                }
                Array[] columns = null; // the output columns are exported only when a row of the chunk is kept
                for (Entry e : entered) {
                    if (!e.evicted) {
                        if (columns == null) {
                            columns = new Array[outputs.length];
                            for (int i = 0; i < outputs.length; i++) {
                                columns[i] = chunk.column(outputs[i]);
                            }
                        }
                        int row = (int) (e.position - first);
                        e.row = rows.build(columns, row);
                        if (keepFirstKey) {
                            e.firstKey = Values.valueAt(keyArrays[0], row);
                        }
                    }
                }
            }
        }
        return new ArrayList<>(heap);
    }

    /** The rows {@code selection} selects (every row of the chunk when it is null), ascending. */
    private static int[] selected(Bitmap selection, int length) {
        if (selection == null) {
            int[] all = new int[length];
            for (int i = 0; i < length; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] rows = new int[selection.cardinality()];
        int n = 0;
        for (int r = selection.nextSetBit(0); r >= 0; r = selection.nextSetBit(r + 1)) {
            rows[n++] = r;
        }
        return rows;
    }

    /** A kept row: its keys, where it came from (ties go by scan order), and the built row. */
    private static final class Entry {
        final long[] longs;
        final Object[] objects;
        final boolean[] nulls;
        final int split;
        /** The file row. */
        final long position;
        /** Built once the entry's chunk is done, if still kept. */
        Object row;
        /** Left the heap (before its row was built). */
        boolean evicted;
        /** The first key's value as the reader reads it (a predicate literal), when pruning. */
        Object firstKey;

        Entry(int keys, int split, long position) {
            this.longs = new long[keys];
            this.objects = new Object[keys];
            this.nulls = new boolean[keys];
            this.split = split;
            this.position = position;
        }
    }

    /** The keys' order over entries (ties by split, then row) and of a chunk row against an entry. */
    private static final class Ordering implements Comparator<Entry> {
        final int[] positions;
        final KeyReader[] readers;
        final boolean[] descending;
        final boolean[] nullsFirst;

        Ordering(VortexDataset dataset, List<SortKey> keys, List<String> scanned) {
            int n = keys.size();
            positions = new int[n];
            readers = new KeyReader[n];
            descending = new boolean[n];
            nullsFirst = new boolean[n];
            for (int k = 0; k < n; k++) {
                SortKey key = keys.get(k);
                positions[k] = scanned.indexOf(key.column());
                readers[k] = KeyReader.of(key, dataset.fileSchema().field(key.column()).type());
                descending[k] = key.descending();
                nullsFirst[k] = key.nullsFirst();
            }
        }

        Entry entry(Array[] arrays, int row, int split, long position) {
            Entry e = new Entry(readers.length, split, position);
            for (int k = 0; k < readers.length; k++) {
                if (arrays[k].isNull(row)) {
                    e.nulls[k] = true;
                } else if (readers[k].isLong) {
                    e.longs[k] = readers[k].longAt(arrays[k], row);
                } else {
                    e.objects[k] = readers[k].objectAt(arrays[k], row);
                }
            }
            return e;
        }

        /**
         * Row {@code row} of the chunk (file row {@code position}, in {@code e}'s split) against
         * {@code e}: negative when the row comes first.
         */
        int compareRow(Array[] arrays, boolean[] mayBeNull, int row, long position, Entry e) {
            for (int k = 0; k < readers.length; k++) {
                boolean nul = mayBeNull[k] && arrays[k].isNull(row);
                if (nul || e.nulls[k]) {
                    if (nul && e.nulls[k]) {
                        continue;
                    }
                    return nul == nullsFirst[k] ? -1 : 1;
                }
                int c = readers[k].isLong ? Long.compare(readers[k].longAt(arrays[k], row), e.longs[k])
                        : readers[k].objectAt(arrays[k], row).compareTo(e.objects[k]);
                if (c != 0) {
                    return descending[k] ? -c : c;
                }
            }
            return Long.compare(position, e.position);
        }

        @Override
        public int compare(Entry a, Entry b) {
            for (int k = 0; k < readers.length; k++) {
                if (a.nulls[k] || b.nulls[k]) {
                    if (a.nulls[k] && b.nulls[k]) {
                        continue;
                    }
                    return a.nulls[k] == nullsFirst[k] ? -1 : 1;
                }
                @SuppressWarnings("unchecked")
                int c = readers[k].isLong ? Long.compare(a.longs[k], b.longs[k])
                        : ((Comparable<Object>) a.objects[k]).compareTo(b.objects[k]);
                if (c != 0) {
                    return descending[k] ? -c : c;
                }
            }
            int c = Integer.compare(a.split, b.split);
            return c != 0 ? c : Long.compare(a.position, b.position);
        }
    }
}
