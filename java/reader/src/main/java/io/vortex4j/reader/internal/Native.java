package io.vortex4j.reader.internal;

/**
 * The JNI surface of the native library: static functions on {@code long} handles.
 *
 * <p>Handles are owned by the public wrappers ({@code VortexFile}, {@code Scan}, {@code Chunk},
 * {@code VortexWriter}), which check that a handle is open before every call and free it exactly
 * once. Every function throws {@link io.vortex4j.VortexException} for errors; none returns an
 * error code. Not part of the public API.
 *
 * <p>Every record that crosses this boundary (schemas, exported columns, bitmaps, counts,
 * aggregate partials, code tables) is specified once, in docs/jni.md; the predicate's encoding in
 * docs/predicate-encoding.md ({@code PredicateCodec}).
 */
public final class Native {
    static {
        NativeLoader.load();
    }

    private Native() {}

    /** Makes sure the library is loaded (a no-op after the first call). */
    public static void ensureLoaded() {}

    // ---- memory

    /** Bytes the library's native code holds now (see {@code rust/src/runtime/memory.rs}). */
    public static native long liveNativeBytes();

    /** Keeps at most {@code files} files' layout readers ({@code rust/src/cache/readers.rs}). */
    public static native void setReaderCacheCapacity(int files);

    /** How many files' layout readers are kept at most. */
    public static native long readerCacheCapacity();

    /** How many files' layout readers are kept now. */
    public static native long cachedReaders();

    /** Keeps at most {@code bytes} of segments read ({@code rust/src/cache/segments.rs}). */
    public static native void setSegmentCacheCapacity(long bytes);

    /** Bytes of segments kept at most. */
    public static native long segmentCacheCapacity();

    /** Bytes of segments kept now. */
    public static native long cachedSegmentBytes();

    /** Drops every kept segment (the capacity stays). */
    public static native void clearSegmentCache();

    // ---- files

    /** Opens the file at {@code path} (a local path or an object store location); returns a file handle. */
    public static native long openFile(String path);

    /** {@link #openFile} of a file a listing found with {@code size} bytes, modified at {@code modifiedMillis}: an object without a HEAD. */
    public static native long openListedFile(String path, long size, long modifiedMillis);

    // ---- object stores

    /** Sets the properties of {@code scope} ({@code s3}, {@code s3://bucket}, …): {@code keys[i]} is {@code values[i]}. */
    public static native void configureStore(String scope, String[] keys, String[] values);

    /** {@code Object[]{String[] locations, long[] sizes, long[] modifiedMillis}}: the objects under {@code location}. */
    public static native Object[] listObjects(String location);

    /**
     * {@code long[]{requests, bytes fetched, segment cache hits, listings, requests in flight}} of
     * every store: the first four since the process started.
     */
    public static native long[] storeFetched();

    /** Writes the local file {@code local} to the object at {@code location} atomically; its bytes. */
    public static native long uploadObject(String local, String location);

    /** Writes the object at {@code location} to the local file {@code local}, in place once complete; its bytes. */
    public static native long downloadObject(String location, String local);

    /** Copies the object at {@code from} to {@code to} (same store), on the store's side. */
    public static native void copyObject(String from, String to);

    /** Deletes the object at {@code location} (none there: nothing to do). */
    public static native void deleteObject(String location);

    /** Rows in the file. */
    public static native long rowCount(long file);

    /**
     * Throws unless the open file (not the path: the file being read) still has {@code size}
     * bytes and was last modified at {@code modifiedMillis}.
     */
    public static native void checkUnchanged(long file, long size, long modifiedMillis);

    /** The file's top-level columns, encoded as described in the class comment. */
    public static native Object[] schema(long file);

    /** Frees a file handle. */
    public static native void freeFile(long file);

    /**
     * The footer's exact statistics of each top-level column, in schema order: {@code
     * Object[]{long[] nullCounts, String[] mins, String[] maxs, String[] sums}}, -1 and null where
     * unknown (decoded by {@code ColumnStatistics.fromNative}).
     */
    public static native Object[] columnStatistics(long file);

    // ---- scans

    /** Rows the scan skipped by zone-map pruning. */
    public static native long prunedRows(long scan);

    /**
     * The next chunk of the scan as a chunk handle, or 0 at the end; its length and the file row
     * number of its first row are written to {@code position[0]} and {@code position[1]}.
     */
    public static native long nextChunk(long scan, long[] position);

    /**
     * The rows the prepared filter (with no leaf Java evaluates) selects in the scan's next
     * chunks, at most {@code maxChunks} of them, each read, counted and freed natively: one call
     * for what {@link #nextChunk}, {@link #countSelected} and {@link #freeChunk} do per chunk.
     * Writes to {@code out} (5 longs) the chunks counted, 1 if the scan has no more chunks (else
     * 0), and where the filter cannot be evaluated natively on a chunk, the handle of that chunk
     * (the caller owns it; not counted, nor among those counted), its length and its first row;
     * else a 0 handle.
     */
    public static native long countChunks(long scan, long filter, int maxChunks, long[] out);

    /** Frees a scan handle (chunks already returned stay valid). */
    public static native void freeScan(long scan);

    // ---- chunks

    /** Exports column {@code column} of the chunk to buffers Java can wrap without copying. */
    public static native Object[] exportColumn(long chunk, int column);

    /**
     * The dictionary of a dictionary-encoded string column (the nested dictionary part of
     * {@link #exportColumn}, with its id in the header), without decoding any code; null if the
     * column is not dictionary-encoded.
     */
    public static native Object[] exportDictionary(long chunk, int column);

    /**
     * Aggregates one chunk natively: the rows of {@code selection} (a bitmap, or null for all)
     * grouped by the dictionary codes of columns {@code keys} (none: one group); aggregate {@code
     * a} is function {@code funcs[a]} (GroupAggregate.Function ordinal) of column {@code
     * columns[a]} (-1 for COUNT(*)). Returns {@code Object[]{long[]{groups}, rows, codes, count0,
     * value0, count1, value1, ...}}: per group the selected rows, then per aggregate the rows or
     * non-null values and the SUM/MIN/MAX ({@code long[]}, or {@code double[]} for a float
     * column: a float SUM is {@code starts[a]}, the sum so far, plus the chunk's values added in
     * row order). With one key group {@code c} is code {@code c} and
     * group {@code groups - 1} the null key, and {@code codes} is empty; with several, {@code
     * codes} holds each group's composite code {@code slot0 + (n0 + 1) * (slot1 + (n1 + 1) *
     * (...))}, {@code nk} the length of key {@code k}'s dictionary and slot {@code nk} its null.
     * When several keys mix dictionaries of strings with integer or date (days) columns, {@code
     * codes} is empty and after the aggregates come, per key, each group's value ({@code long[]}:
     * a dictionary slot, an integer, days) and a bitmap of the groups whose key is null ({@code
     * long[]}). Null when the native kernel does not take the chunk (one key not a dictionary of
     * strings, a key of another type, composite codes beyond 64 bits, an aggregate it does not
     * compute). {@code starts} null:
     * every float sum starts from 0.0.
     */
    public static native Object[] aggregateChunk(long chunk, int[] keys, long[] selection, int[] funcs, int[] columns,
            double[] starts);

    /** The encoding tree of column {@code column} of the chunk, one node a line. */
    public static native String encodingTree(long chunk, int column);

    /**
     * The code tables the native library uses (docs/jni.md, "Code tables"), one member per line:
     * {@code table name code}, for the tables {@code type} ({@code DataType.Kind}), {@code unit}
     * ({@code DataType.TimeUnit}), {@code aggregate} ({@code GroupAggregate.Function}), {@code
     * tree} (the prepared filter's shape tags) and {@code path} ({@code LeafPath}).
     */
    public static native String codeTables();

    /** Frees a chunk handle and every buffer exported from it. */
    public static native void freeChunk(long chunk);

    // ---- filters

    /**
     * The reference: vortex's own scan of the file with the predicate as its filter expression.
     * Returns the indices of the selected rows, ascending.
     */
    public static native long[] filteredScanRows(long file, byte[] predicate);

    /**
     * The reference scan again, projecting {@code columns} of the selected rows (decoding them
     * when {@code materialize}) and returning how many rows were selected (for benchmarks).
     */
    public static native long filteredScanCount(
            long file, byte[] predicate, String[] columns, boolean materialize);

    // ---- writing

    /** Creates a file for writing with the given schema (encoded as in {@link #schema}). */
    public static native long openWriter(String path, Object[] schema);

    /**
     * Appends {@code rows} rows. {@code values[i]} is column i's values as a Java primitive array
     * ({@code boolean[]}, {@code byte[]}, {@code short[]}, {@code int[]}, {@code long[]},
     * {@code float[]}, {@code double[]}), or UTF-8/binary bytes with {@code offsets[i]} holding
     * rows + 1 start offsets; {@code validity[i]} is a {@code boolean[]} (true = valid) or null.
     */
    public static native void writeBatch(
            long writer, int rows, Object[] values, Object[] offsets, Object[] validity);

    /** Finishes the file (footer, statistics); returns its size. The handle must still be freed. */
    public static native long finishWriter(long writer);

    /** Frees a writer handle; an unfinished file is deleted. */
    public static native void freeWriter(long writer);

    // ---- per-entry tables computed in Java

    /**
     * Selects the rows of a dictionary-encoded string column by a per-code table: bit {@code c}
     * of {@code table} (LSB first) says whether rows whose code is {@code c} are selected, and
     * bit {@code n} (n = the dictionary's size) whether rows with a null code are; {@code table}
     * has exactly {@code (n + 64) / 64} words. Rows are selected by the same fused unpack/lookup
     * kernel as the dictionary filter. Returns the selection bitmap, or null when the column
     * is not dictionary-encoded; throws if the table does not fit the dictionary.
     */
    public static native long[] selectByCodeTable(long chunk, int column, long[] table);

    // ---- prepared filters

    /**
     * Prepares a filter for the chunks of {@code scan}, before or after its first chunk: {@code shape} is its negation
     * normal form in prefix order ({@code 0 n}: AND of n children, {@code 1 n}: OR, {@code 2 k}:
     * leaf k), {@code leaves[k]} leaf k's {@code PredicateCodec} encoding (null: Java evaluates it
     * and passes its selection per chunk) on scan column {@code columns[k]}. Returns a filter
     * handle.
     */
    public static native long prepareFilter(long scan, int[] shape, byte[][] leaves, int[] columns);

    /** Frees a prepared filter handle. */
    public static native void freeFilter(long filter);

    /**
     * The rows of the chunk the prepared filter selects, as a bitmap; {@code external[k]} is the
     * selection of leaf k where Java evaluates it ({@code external} null when it evaluates none).
     * Null when a leaf cannot be evaluated natively on this chunk. {@code paths} (null, or one
     * int per leaf) receives the kernel that computed each leaf's selection ({@code LeafPath}
     * ordinals).
     */
    public static native long[] selectRows(long chunk, long filter, long[][] external, int[] paths);

    /**
     * How many rows of the chunk the prepared filter selects; {@code external[k]} is the
     * selection of leaf k where Java evaluates it ({@code external} null when it evaluates none).
     * -1 when a leaf cannot be evaluated natively on this chunk.
     */
    public static native long countSelected(long chunk, long filter, long[][] external);

    /**
     * {@link #aggregateChunk} of the rows the prepared filter selects, in one call: its {@code
     * Object[]}; the selection ({@code long[]}) when the aggregate kernel does not take the chunk;
     * null when the filter cannot be evaluated natively on it.
     */
    public static native Object aggregateSelected(long chunk, long filter, long[][] external, int[] keys, int[] funcs,
            int[] columns, double[] starts);

    // ---- datasets

    /**
     * Starts a scan of the named columns (in that order) over the file rows {@code [start, end)}
     * (chunks are clipped to them); returns a scan handle. With a {@code prune} predicate (may be
     * null), splits whose zone-map statistics rule it out are skipped.
     */
    public static native long openScanRows(long file, String[] columns, byte[] prune, long start, long end);

    /**
     * Splits' filtered counts, several in one call: split {@code i} is the rows {@code
     * [splits[4i], splits[4i+1])} of the open file {@code files[i]}, planned when the file had
     * {@code splits[4i+2]} bytes and modification time {@code splits[4i+3]} ms (a negative size:
     * not checked). From split {@code from} on, each file is checked ({@link #checkUnchanged}),
     * the split scanned ({@link #openScanRows}) and counted through the filter ({@link
     * #prepareFilter}'s arguments, every leaf native; prepared once for files of the same column
     * types) for up to {@code maxChunks} chunks ({@link #countChunks}), its count written to
     * {@code counts[i]}. Returns the number of splits when every one is counted; else the index of
     * the split with chunks left or a declined chunk, with {@code out} (7 longs) holding what
     * {@code countChunks} writes for it, then its scan's and its filter's handles, which the
     * caller owns (as the declined chunk).
     */
    public static native int countSplits(long[] files, long[] splits, int from, String[] columns, byte[] prune,
            int[] shape, byte[][] leaves, int[] leafColumns, int maxChunks, long[] counts, long[] out);

    /**
     * The file's natural splits (its chunk-aligned row ranges, ascending) that zone maps keep for
     * {@code prune} (may be null: all), as {@code long[]{start0, end0, start1, end1, ...}}.
     */
    public static native long[] naturalSplits(long file, byte[] prune);
}
