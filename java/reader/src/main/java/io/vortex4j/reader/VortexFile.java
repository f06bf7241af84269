package io.vortex4j.reader;

import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.compute.PreparedFilter;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.internal.NativeHandle;
import io.vortex4j.reader.predicate.Normalizer;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

/**
 * An open Vortex file: its schema, row count, and scans over it. Any file the Rust reference
 * (vortex 0.90) writes can be read.
 *
 * <pre>{@code
 * try (VortexFile file = VortexFile.open(Paths.get("trades.vortex"));
 *      Scan scan = file.scan("sym", "price")) {
 *     for (Chunk chunk : scan) {
 *         try (chunk) { ... chunk.column(0) ... }
 *     }
 * }
 * }</pre>
 *
 * <p>Thread-safe: several scans may run at once, from different threads. Closing the file does
 * not end scans already started.
 */
public final class VortexFile implements AutoCloseable {
    private final String location;
    private final NativeHandle handle;
    private final Schema schema;
    private final long rowCount;

    private VortexFile(String location, long handle) {
        this.location = location;
        this.handle = new NativeHandle(handle, Native::freeFile, "file " + location);
        long h = this.handle.acquire();
        try {
            this.schema = Schema.fromNative(Native.schema(h));
            this.rowCount = Native.rowCount(h);
        } finally {
            this.handle.release();
        }
    }

    /**
     * Opens the file at {@code path}. Throws {@link io.vortex4j.VortexException} naming the file
     * when it is missing, not a regular file, or not a readable Vortex file.
     */
    public static VortexFile open(Path path) {
        String absolute = path.toAbsolutePath().toString();
        NativeMemory.reserve();
        return new VortexFile(absolute, Native.openFile(absolute));
    }

    /**
     * Opens the file at {@code location}: a local path, or an object in a store ({@code
     * s3://bucket/key}, {@code gs://}, {@code az://}, {@code https://}; see {@link Stores} for
     * credentials and properties). An object is opened with one HEAD request, and its footer read
     * from its tail; every later read asks for the contents it had then (its ETag), so an object
     * replaced under a scan is an exception naming it, never mixed data.
     */
    public static VortexFile open(String location) {
        if (!Stores.isRemote(location)) {
            return open(Stores.localPath(location));
        }
        NativeMemory.reserve();
        return new VortexFile(location, Native.openFile(location));
    }

    /**
     * Opens the object at {@code location} that a listing ({@link
     * io.vortex4j.reader.dataset.VortexDataset}) found with {@code size} bytes, last modified at
     * {@code modifiedMillis}: as {@link #open(String)}, without the HEAD request when that listing
     * gave the object's ETag. Check it is still the listed object with {@link #checkUnchanged}.
     */
    public static VortexFile openListed(String location, long size, long modifiedMillis) {
        if (!Stores.isRemote(location)) {
            return open(Stores.localPath(location));
        }
        NativeMemory.reserve();
        return new VortexFile(location, Native.openListedFile(location, size, modifiedMillis));
    }

    /** The file's absolute path, or its URI for an object in a store. */
    public String location() {
        return location;
    }

    /** The file's path; for an object in a store (no local path) an {@link UnsupportedOperationException}: use {@link #location()}. */
    public Path path() {
        if (Stores.isRemote(location)) {
            throw new UnsupportedOperationException(location + " is an object in a store, not a local file: use location()");
        }
        return Paths.get(location);
    }

    /** The top-level columns. */
    public Schema schema() {
        handle.checkOpen();
        return schema;
    }

    /** The number of rows. */
    public long rowCount() {
        handle.checkOpen();
        return rowCount;
    }

    /**
     * Throws {@link io.vortex4j.VortexException} unless this open file is still there (not
     * deleted, nor replaced by another file moved to its path) with {@code size} bytes, last
     * modified at {@code modifiedMillis} (ms since the epoch): for callers that planned work on a
     * listing of the file and read it later. It asks the open file ({@code fstat}: its link
     * count, size and modification time), with no path lookup.
     */
    public void checkUnchanged(long size, long modifiedMillis) {
        long h = handle.acquire();
        try {
            Native.checkUnchanged(h, size, modifiedMillis);
        } finally {
            handle.release();
        }
    }

    /**
     * The statistics the file's footer holds exactly for each top-level column over all its rows
     * (null count, min, max), in schema order; read from the footer, no row is scanned. See
     * {@link ColumnStatistics} for what may be absent.
     */
    public List<ColumnStatistics> columnStatistics() {
        long h = handle.acquire();
        try {
            return ColumnStatistics.fromNative(Native.columnStatistics(h), schema);
        } finally {
            handle.release();
        }
    }

    /** Scans the named columns in the given order; no names means every column. */
    public Scan scan(String... columns) {
        return scan(Arrays.asList(columns));
    }

    /**
     * Scans the named columns in the given order; an empty list means every column. A name may be
     * the dotted path of a struct field ({@code "st.x"}): only that field is read, as a column of
     * that name ({@link Schema#resolve}); predicates may name such paths too. Throws {@link
     * io.vortex4j.VortexException} for an unknown column.
     */
    public Scan scan(List<String> columns) {
        return scan(columns, null);
    }

    /**
     * Scans the named columns, skipping the chunks whose zone-map statistics (where the file has
     * them) prove that no row satisfies {@code prune}. The chunks returned still hold every row
     * of their range: filter them with {@link Compute#selection}. {@code prune} may be null.
     */
    public Scan scan(List<String> columns, Predicate prune) {
        return scanRows(columns, prune, 0, rowCount(), null, prune);
    }

    /**
     * {@link #scan(List, Predicate)} restricted to the file rows {@code [firstRow, endRow)}: the
     * chunks are clipped to that range. {@code split} and {@code chunkFilter} (may be null) are
     * what {@link Scan#split} and {@link Scan#chunkFilter} return.
     */
    public Scan scanRows(List<String> columns, Predicate prune, long firstRow, long endRow, Split split,
            Predicate chunkFilter) {
        List<String> names = columns.isEmpty() ? schema().names() : columns;
        Schema scanned = scannedSchema(columns);
        long h = handle.acquire();
        try {
            long scan = Native.openScanRows(h, names.toArray(new String[0]), pruneEncoding(prune), firstRow, endRow);
            return new Scan(this, scan, scanned, split, chunkFilter);
        } finally {
            handle.release();
        }
    }

    /** The columns a scan of {@code columns} (empty: all) yields; an unknown one names the file. */
    private Schema scannedSchema(List<String> columns) {
        Object[] last = lastScanned;
        if (last != null && last[0].equals(columns)) {
            return (Schema) last[1]; // a dataset's splits scan the same columns of a file
        }
        Schema scanned = resolve(columns);
        lastScanned = new Object[] {List.copyOf(columns), scanned};
        return scanned;
    }

    /** {columns, their schema} of the last {@link #scannedSchema} call. */
    private volatile Object[] lastScanned;

    private Schema resolve(List<String> columns) {
        List<String> names = columns.isEmpty() ? schema().names() : columns;
        Field[] fields = new Field[names.size()];
        for (int i = 0; i < fields.length; i++) {
            try {
                fields[i] = schema().resolve(names.get(i));
            } catch (io.vortex4j.VortexException e) {
                throw new io.vortex4j.VortexException(location + ": " + e.getMessage());
            }
        }
        return Schema.of(fields);
    }

    /**
     * How many rows of {@code [firstRow, endRow)} satisfy {@code filter} (over the file's
     * columns; null: every row), scanning {@code columns} and skipping chunks zone maps rule the
     * filter out of: what {@code scanRows(columns, filter, firstRow, endRow, split, filter)
     * .countRemaining(filter)} gives. When every leaf of the filter is native, the scan is opened,
     * the filter prepared and the first 16 chunks counted in one native call (a split of a small
     * file costs one crossing and no Java object per scan), then as {@link Scan#countRemaining}.
     */
    public long countRows(List<String> columns, Predicate filter, long firstRow, long endRow, Split split) {
        return countRows(columns, filter, firstRow, endRow, split, COUNT_BATCH);
    }

    /** {@link #countRows(List, Predicate, long, long, Split)} with {@code maxChunks} in the first call (tests). */
    long countRows(List<String> columns, Predicate filter, long firstRow, long endRow, Split split, int maxChunks) {
        return count(new VortexFile[] {this}, new Split[] {split}, new long[] {firstRow, endRow, -1, 0}, columns,
                filter, maxChunks);
    }

    /**
     * How many rows {@code filter} (over the files' columns; null: every row) selects in all of
     * {@code splits}, scanning {@code columns}: the sum of {@link #countRows} over the splits'
     * rows, {@code files.get(i)} being the open file of {@code splits.get(i)}. The files must
     * have the same column types (a dataset's files do). Each file is first checked to be the
     * one its split was planned on, as {@link #checkUnchanged} does with the split's size and
     * modification time. When every leaf of the filter is native, the splits are counted several
     * per native call (each scan opened and its first 16 chunks counted; the filter prepared once),
     * so a dataset of many small files costs one crossing per batch of them, not one per file.
     */
    public static long countSplits(List<VortexFile> files, List<Split> splits, List<String> columns, Predicate filter) {
        return countSplits(files, splits, columns, filter, COUNT_BATCH);
    }

    /** {@link #countSplits(List, List, List, Predicate)} with {@code maxChunks} per split and call (tests). */
    static long countSplits(List<VortexFile> files, List<Split> splits, List<String> columns, Predicate filter,
            int maxChunks) {
        int n = splits.size();
        if (files.size() != n) {
            throw new IllegalArgumentException(files.size() + " files for " + n + " splits");
        }
        long[] planned = new long[4 * n];
        for (int i = 0; i < n; i++) {
            Split s = splits.get(i);
            planned[4 * i] = s.firstRow();
            planned[4 * i + 1] = s.endRow();
            planned[4 * i + 2] = s.fileSize();
            planned[4 * i + 3] = s.modifiedMillis();
        }
        return n == 0 ? 0 : count(files.toArray(new VortexFile[0]), splits.toArray(new Split[0]), planned, columns,
                filter, maxChunks);
    }

    /** The counts of {@link #countSplits}, the splits' rows and planned files in {@code planned}. */
    private static long count(VortexFile[] files, Split[] splits, long[] planned, List<String> columns,
            Predicate filter, int maxChunks) {
        VortexFile first = files[0];
        Object[] encoding = filter == null || !PredicateEvaluator.isDictFilterEnabled() ? null
                : PreparedFilter.nativeEncoding(first.scannedSchema(columns), filter);
        if (encoding == null) {
            long n = 0;
            for (int i = 0; i < files.length; i++) {
                if (planned[4 * i + 2] >= 0) {
                    files[i].checkUnchanged(planned[4 * i + 2], planned[4 * i + 3]);
                }
                try (Scan scan = files[i].scanRows(columns, filter, planned[4 * i], planned[4 * i + 1], splits[i],
                        filter)) {
                    n += scan.countRemaining(filter);
                }
            }
            return n;
        }
        String[] names = (columns.isEmpty() ? first.schema().names() : columns).toArray(new String[0]);
        byte[] prune = pruneEncoding(filter);
        long[] handles = new long[files.length];
        long[] counts = new long[files.length];
        long[] out = new long[7];
        long rows = 0;
        int acquired = 0;
        try {
            for (; acquired < files.length; acquired++) {
                handles[acquired] = files[acquired].handle.acquire();
            }
            int from = 0;
            while (from < files.length) {
                Cancellation.current().check();
                NativeMemory.reserve();
                int stopped = Native.countSplits(handles, planned, from, names, prune, (int[]) encoding[0],
                        (byte[][]) encoding[1], (int[]) encoding[2], maxChunks, counts, out);
                for (int i = from; i < stopped; i++) {
                    rows += counts[i];
                }
                if (stopped == files.length) {
                    break;
                }
                // This split has chunks left, or one the native filter declined: go on with its scan.
                VortexFile f = files[stopped];
                long[] declined = new long[1];
                try (Scan scan = Scan.afterCount(f, f.scannedSchema(columns), splits[stopped], filter, out, declined)) {
                    rows += counts[stopped] + declined[0] + scan.countRemaining(filter);
                }
                from = stopped + 1;
            }
        } finally {
            for (int i = 0; i < acquired; i++) {
                files[i].handle.release();
            }
        }
        return rows;
    }

    /** Chunks {@link #countRows} counts in its first native call. */
    private static final int COUNT_BATCH = 16;

    /**
     * The file's natural splits (the row ranges its chunks are laid out in, ascending) that zone
     * maps keep for {@code prune} (null keeps all), as {@code {start0, end0, start1, end1, ...}}.
     */
    public long[] naturalSplits(Predicate prune) {
        long h = handle.acquire();
        try {
            return Native.naturalSplits(h, pruneEncoding(prune));
        } finally {
            handle.release();
        }
    }

    /**
     * The prune predicate for the native side: the part of it the native side can carry ({@link
     * Normalizer#prunable}: conjuncts that are Java functions are dropped), or null for none.
     */
    private static byte[] pruneEncoding(Predicate prune) {
        if (prune == null) {
            return null;
        }
        // The last one is kept: a query's splits (100 files: 100 scans) encode the same filter.
        Object[] last = lastPrune;
        if (last != null && last[0] == prune) {
            return (byte[]) last[1];
        }
        byte[] encoded;
        try {
            Predicate carried = Normalizer.prunable(prune);
            encoded = carried == null ? null : PredicateCodec.encode(carried);
        } catch (IllegalArgumentException e) {
            encoded = null; // e.g. java.time literals: no pruning, same answers
        }
        lastPrune = new Object[] {prune, encoded};
        return encoded;
    }

    /** {prune predicate, its encoding} of the last {@link #pruneEncoding} call. */
    private static volatile Object[] lastPrune;

    /**
     * vortex's own filtered scan (the reference reader, with {@code filter} as its filter
     * expression) projecting {@code columns} of the selected rows (decoded when {@code
     * materialize}); returns how many rows were selected. The {@code native} path of the CLI's
     * {@code filter} command, timed beside the Java paths over the same file.
     */
    public long referenceFilteredCount(Predicate filter, boolean materialize, String... columns) {
        long h = handle.acquire();
        try {
            return Native.filteredScanCount(h, PredicateCodec.encode(filter), columns, materialize);
        } finally {
            handle.release();
        }
    }

    NativeHandle handle() {
        return handle;
    }

    /** Releases the file. Scans already started keep working. Idempotent. */
    @Override
    public void close() {
        handle.close();
    }

    @Override
    public String toString() {
        return "VortexFile[" + location + "]";
    }
}
