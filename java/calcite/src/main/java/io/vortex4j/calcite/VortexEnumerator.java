package io.vortex4j.calcite;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.ChunkReadAhead;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Rows of a Vortex dataset for Calcite: walks the dataset's splits for the pushed filter in order
 * (files whose partition values rule it out are never opened), each split's scan chunk by chunk
 * (skipping the chunks whose zone-map statistics rule the filter out), takes each chunk's
 * selection of the filter (the scan's chunk filter, dictionary columns filtered natively) and
 * builds rows only for the selected rows and only from the projected columns. Partition columns
 * take the split's values. With {@code threads} above 1, chunks are read, filtered and exported
 * ahead on worker threads while Calcite consumes rows ({@link ChunkReadAhead}); the rows and their
 * order do not depend on it.
 *
 * <p>A row is an {@code Object[]} of the projected values in Calcite's representation (see
 * {@link VortexColumn}), or the bare value when the scan projects one column and the generated
 * code expects scalars. Dictionary-encoded strings are decoded once per dictionary entry by the
 * reader, not once per row.
 *
 * <p>The scan stops with {@link io.vortex4j.CancelledException} when the {@link Cancellation}
 * current when the enumerator was created is cancelled: checked before each chunk is read and
 * every {@value #CHECK_EVERY} rows (Calcite may do much work per row, a join's probe say). Any
 * failure closes the scan and the chunk before it propagates.
 *
 * <p>Not thread-safe; {@link #close()} releases the scan and the current chunk.
 */
public final class VortexEnumerator implements Enumerator<Object> {
    /** Rows between two checks of the cancellation (a power of two). */
    static final int CHECK_EVERY = 1024;

    /** The projected columns, to read partition values by. */
    private final List<VortexColumn> columns;
    /** Per output column: the split's value of a partition column (null for file columns). */
    private final Object[] constants;
    private final ChunkReadAhead chunks;
    /** The split whose partition values are in {@link #constants}. */
    private Split split;
    private final boolean scalar;
    private final Cancellation cancellation = Cancellation.current();
    private int rowsSinceCheck;
    private final VortexColumn.ValueReader[] readers;
    /** For each output column, its position in the scan. */
    private final int[] scanPositions;
    private final Array[] arrays;
    private Chunk chunk;
    private Bitmap selection;
    private int row;
    private int length;
    private Object current;
    private boolean done;

    /**
     * An enumerator over {@code dataset}'s rows where {@code filter} (may be null) holds,
     * producing {@code columns} in order; {@code scalar} asks for bare values instead of
     * one-element arrays (only with one column); {@code threads} ≥ 1 bounds the threads reading
     * ahead, this one included. Plans the splits now.
     */
    VortexEnumerator(VortexDataset dataset, List<VortexColumn> columns, Predicate filter, boolean scalar,
            int threads) {
        if (scalar && columns.size() != 1) {
            throw new IllegalArgumentException("scalar rows need exactly one column, not " + columns);
        }
        this.scalar = scalar;
        this.columns = columns;
        this.constants = new Object[columns.size()];
        List<String> scanned = new ArrayList<>();
        this.readers = new VortexColumn.ValueReader[columns.size()];
        this.scanPositions = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            VortexColumn c = columns.get(i);
            if (c.isPartition()) {
                scanPositions[i] = -1;
                continue;
            }
            int pos = scanned.indexOf(c.name());
            if (pos < 0) {
                pos = scanned.size();
                scanned.add(c.name());
            }
            scanPositions[i] = pos;
            readers[i] = c.reader();
        }
        // The projected file columns come first: they are exported ahead, filter-only ones are not.
        int exported = scanned.size();
        if (filter != null) {
            for (String c : filter.columns()) {
                // File columns and struct fields by path; partition columns come from the splits.
                int i = dataset.schema().indexOf(c);
                if (!scanned.contains(c) && (i < 0 || i < dataset.fileSchema().size())) {
                    scanned.add(c);
                }
            }
        }
        if (scanned.isEmpty()) {
            // No column is needed, only row counts: any column gives the chunk lengths.
            scanned.add(dataset.fileSchema().field(0).name());
        }
        this.arrays = new Array[columns.size()];
        // The filter also prunes: files its partition part rules out, chunks their zone maps rule out.
        this.chunks = ChunkReadAhead.open(dataset, dataset.splits(filter), scanned, filter, exported, threads);
    }

    @Override
    public Object current() {
        return current;
    }

    @Override
    public boolean moveNext() {
        try {
            return advance();
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private boolean advance() {
        while (true) {
            if (chunk != null) {
                int next;
                if (selection == null) {
                    next = row + 1 < length ? row + 1 : -1;
                } else {
                    next = selection.nextSetBit(row + 1);
                }
                if (next >= 0) {
                    if ((++rowsSinceCheck & (CHECK_EVERY - 1)) == 0) {
                        cancellation.check();
                    }
                    row = next;
                    current = build(next);
                    return true;
                }
                closeChunk();
            }
            if (done) {
                return false;
            }
            ChunkReadAhead.Ready next = chunks.next();
            if (next == null) {
                done = true;
                close();
                return false;
            }
            openChunk(next);
        }
    }

    private void openChunk(ChunkReadAhead.Ready ready) {
        if (ready.split() != split) {
            split = ready.split();
            for (int i = 0; i < constants.length; i++) {
                if (scanPositions[i] < 0) {
                    VortexColumn c = columns.get(i);
                    constants[i] = c.fromReaderValue(split.partitionValues().get(c.name()));
                }
            }
        }
        chunk = ready.chunk();
        row = -1;
        length = chunk.length();
        selection = ready.selection();
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = scanPositions[i] < 0 ? null : chunk.column(scanPositions[i]);
        }
    }

    private Object build(int i) {
        if (scalar) {
            return readers[0] == null ? constants[0] : readers[0].read(arrays[0], i);
        }
        Object[] values = new Object[readers.length];
        for (int k = 0; k < values.length; k++) {
            values[k] = readers[k] == null ? constants[k] : readers[k].read(arrays[k], i);
        }
        return values;
    }

    private void closeChunk() {
        if (chunk != null) {
            chunk.close();
            chunk = null;
        }
        selection = null;
        java.util.Arrays.fill(arrays, null);
    }

    /** Not supported: a scan runs once. */
    @Override
    public void reset() {
        throw new UnsupportedOperationException("a Vortex scan cannot be restarted");
    }

    /** Releases the current chunk, stops reading ahead and releases what was read. Idempotent. */
    @Override
    public void close() {
        closeChunk();
        chunks.close();
        done = true;
    }
}
