package io.vortex4j.reader;

import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.ColumnExport;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.internal.NativeHandle;
import io.vortex4j.reader.predicate.Predicate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A horizontal slice of a scan: the same rows of each scanned column, held in native memory
 * until {@link #close()} (or until the garbage collector finds the chunk and its arrays
 * unreachable). Columns keep the file's encoding where vortex4j can use it (dictionary-encoded
 * strings arrive as {@link VarBinDictArray}).
 *
 * <p>Threads: a chunk and its arrays may be read from several threads at once, and closed from
 * any thread at any time. {@link #close()} frees the native memory at once (after native calls on
 * the chunk in flight, which it waits for); reads of its arrays after the close throw {@link
 * IllegalStateException}, and a read racing with the close returns the value from before the
 * close or throws, never a value from freed memory and never a crash (see {@link Array}).
 */
public final class Chunk implements AutoCloseable {
    private final Scan scan;
    private final NativeHandle handle;
    private final int length;
    private final long index;
    private final long firstRow;
    private final Array[] columns;
    /** Selections memoized by {@link PredicateEvaluator}; dropped with the chunk. */
    private final Map<Predicate, Bitmap> selections = new ConcurrentHashMap<>();

    Chunk(Scan scan, long handle, long index, int length, long firstRow) {
        this.scan = scan;
        this.index = index;
        this.firstRow = firstRow;
        this.handle = new NativeHandle(handle, Native::freeChunk,
                "chunk " + index + " of " + scan.file().location());
        this.length = length;
        this.columns = new Array[scan.schema().size()];
    }

    /** The number of rows. */
    public int length() {
        handle.checkOpen();
        return length;
    }

    /** The position of this chunk in its scan, from 0. */
    public long index() {
        return index;
    }

    /** The file row number of this chunk's first row. */
    public long firstRow() {
        return firstRow;
    }

    /** The scanned columns. */
    public Schema schema() {
        return scan.schema();
    }

    /**
     * Column {@code i} of the scan. Throws {@link UnsupportedOperationException} naming the column
     * for a dtype vortex4j does not read.
     */
    public Array column(int i) {
        Field field = schema().field(i);
        synchronized (columns) {
            Array a = columns[i];
            if (a != null) {
                handle.checkOpen();
                return a;
            }
            if (!field.type().isSupported()) {
                throw new UnsupportedOperationException("column '" + field.name() + "' has dtype "
                        + field.type() + ", which vortex4j does not read");
            }
            NativeMemory.reserve();
            long h = handle.acquire();
            try {
                Object[] export = Native.exportColumn(h, i);
                a = ColumnExport.toArray(handle, field, export, scan::dictionary);
            } finally {
                handle.release();
            }
            if (a instanceof VarBinDictArray) {
                scan.rememberDictionary(((VarBinDictArray) a).strings());
            }
            columns[i] = a;
            return a;
        }
    }

    /** The named column; throws {@link io.vortex4j.VortexException} for an unknown name. */
    public Array column(String name) {
        int i = schema().indexOf(name);
        if (i < 0) {
            schema().field(name);
        }
        return column(i);
    }

    /**
     * The dictionary of column {@code i} if it is a dictionary-encoded string column, without
     * decoding the codes; null otherwise.
     */
    public VarBinDictArray.Dictionary dictionary(int i) {
        Field field = schema().field(i);
        // The chunk holds the exported dictionary natively as long as it lives (another thread's
        // scans may evict it from the shared dictionary cache meanwhile).
        Object[] export;
        long h = handle.acquire();
        try {
            export = Native.exportDictionary(h, i);
        } finally {
            handle.release();
        }
        if (export == null) {
            return null;
        }
        VarBinDictArray.Dictionary d = ColumnExport.dictionary(handle, field, export, scan::dictionary);
        scan.rememberDictionary(d.strings());
        return d;
    }

    /**
     * The selections computed for this chunk, by filter: the evaluator's memo, so a filter is
     * evaluated once per chunk however many consumers ask ({@code io.vortex4j.reader.compute}).
     */
    public Map<Predicate, Bitmap> selectionMemo() {
        return selections;
    }

    /** The scan this chunk came from. */
    public Scan scan() {
        return scan;
    }

    /** The encoding tree of column {@code i} in this chunk, e.g. for {@code inspect}. */
    public String encodingTree(int i) {
        schema().field(i);
        long h = handle.acquire();
        try {
            return Native.encodingTree(h, i);
        } finally {
            handle.release();
        }
    }

    /** True until closed. */
    public boolean isOpen() {
        return handle.isOpen();
    }

    /** The chunk's native handle, for the reader's kernels ({@code compute}); not a user API. */
    public NativeHandle handle() {
        return handle;
    }

    /** Frees the chunk's native memory; its arrays become unusable. Idempotent. */
    @Override
    public void close() {
        handle.close();
        selections.clear();
    }

    @Override
    public String toString() {
        return "Chunk[" + index + ", rows " + firstRow + ".." + (firstRow + length) + "]";
    }
}
