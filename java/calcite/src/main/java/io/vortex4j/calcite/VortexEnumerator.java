package io.vortex4j.calcite;

import io.vortex4j.reader.Array;
import io.vortex4j.reader.Bitmap;
import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Compute;
import io.vortex4j.reader.Predicate;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Split;
import io.vortex4j.reader.VortexDataset;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Rows of a Vortex dataset for Calcite: walks the dataset's splits for the pushed filter in order
 * (files whose partition values rule it out are never opened), each split's scan chunk by chunk
 * (skipping the chunks whose zone-map statistics rule the filter out), asks the reader for each
 * chunk's selection of the filter ({@link Compute#selection} of the scan's chunk filter,
 * dictionary columns filtered natively) and builds rows only for the selected rows and only from
 * the projected columns. Partition columns take the split's values.
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

    private final VortexDataset dataset;
    private final List<Split> splits;
    private int nextSplit;
    /** The file columns read from the chunks. */
    private final List<String> scanned;
    /** The projected columns, to read partition values by. */
    private final List<VortexColumn> columns;
    private final Predicate filter;
    /** Per output column: the split's value of a partition column (null for file columns). */
    private final Object[] constants;
    private Scan scan;
    private Predicate chunkFilter;
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
     * one-element arrays (only with one column). Plans the splits now.
     */
    VortexEnumerator(VortexDataset dataset, List<VortexColumn> columns, Predicate filter, boolean scalar) {
        if (scalar && columns.size() != 1) {
            throw new IllegalArgumentException("scalar rows need exactly one column, not " + columns);
        }
        this.dataset = dataset;
        this.filter = filter;
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
        this.scanned = scanned;
        this.arrays = new Array[columns.size()];
        // The filter also prunes: files its partition part rules out, chunks their zone maps rule out.
        this.splits = dataset.splits(filter);
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
            if (scan == null || !scan.hasNext()) {
                if (!openNextScan()) {
                    done = true;
                    close();
                    return false;
                }
                continue;
            }
            openChunk(scan.next());
        }
    }

    /** Closes the current split's scan and opens the next one's; false when none is left. */
    private boolean openNextScan() {
        if (scan != null) {
            scan.close();
            scan = null;
        }
        if (nextSplit == splits.size()) {
            return false;
        }
        Split split = splits.get(nextSplit++);
        scan = dataset.scan(split, scanned, filter);
        chunkFilter = scan.chunkFilter();
        for (int i = 0; i < constants.length; i++) {
            if (scanPositions[i] < 0) {
                VortexColumn c = columns.get(i);
                constants[i] = c.fromReaderValue(split.partitionValues().get(c.name()));
            }
        }
        return true;
    }

    private void openChunk(Chunk c) {
        chunk = c;
        row = -1;
        length = c.length();
        selection = chunkFilter == null ? null : Compute.selection(c, chunkFilter);
        if (selection != null && selection.cardinality() == 0) {
            // Nothing selected: skip the chunk without touching its projected columns.
            length = 0;
            selection = null;
            return;
        }
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = scanPositions[i] < 0 ? null : c.column(scanPositions[i]);
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

    /** Releases the current chunk and the scan. Idempotent. */
    @Override
    public void close() {
        closeChunk();
        if (scan != null) {
            scan.close();
            scan = null;
        }
        nextSplit = splits.size();
        done = true;
    }
}
