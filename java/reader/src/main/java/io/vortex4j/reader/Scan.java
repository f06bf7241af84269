package io.vortex4j.reader;

import io.vortex4j.reader.array.DictionaryStrings;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.compute.PreparedFilter;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.internal.NativeHandle;
import io.vortex4j.reader.predicate.Predicate;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A scan over a file: an iterator of {@link Chunk}s in file order, covering every row once.
 *
 * <p>Each chunk owns native memory: close it when done (or let the garbage collector free it).
 * A scan is meant for one thread at a time. Before reading each chunk it checks the {@link
 * Cancellation} that was current when it was opened, and throws {@link
 * io.vortex4j.CancelledException} once that is cancelled.
 */
public final class Scan implements Iterator<Chunk>, Iterable<Chunk>, AutoCloseable {
    /** Chunks {@link #countRemaining} counts per native call: it checks the cancellation between calls. */
    private static final int COUNT_BATCH = 16;

    private final VortexFile file;
    private final NativeHandle handle;
    private final Schema schema;
    private final Cancellation cancellation = Cancellation.current();
    /** Decoded dictionary strings by dictionary id, shared by the chunks that share a dictionary. */
    private final Map<Long, DictionaryStrings> dictionaries = new HashMap<>();
    /** Filters prepared for this scan's chunks, by filter; freed with the scan. */
    private final Map<Predicate, PreparedFilter> prepared = new HashMap<>();
    private boolean closed;
    private Chunk next;
    private boolean done;
    private long chunkIndex;

    private final Split split;
    private final Predicate chunkFilter;

    Scan(VortexFile file, long handle, Schema schema, Split split, Predicate chunkFilter) {
        this.file = file;
        this.split = split;
        this.chunkFilter = chunkFilter;
        this.handle = new NativeHandle(handle, Native::freeScan, "scan of " + file.location());
        this.schema = schema;
    }

    /** The scanned columns. */
    public Schema schema() {
        return schema;
    }

    /** The file being scanned. */
    public VortexFile file() {
        return file;
    }

    /**
     * The dataset split this scan reads ({@link VortexDataset#scan}), null for a scan of a whole
     * file. Its partition values are the values of the dataset's partition columns in every chunk.
     */
    public Split split() {
        return split;
    }

    /**
     * The filter the chunks' rows still have to pass, over the chunk columns, or null when every
     * row does: the prune predicate the scan was opened with, or for a dataset split the filter
     * with its partition columns decided by the split's values.
     */
    public Predicate chunkFilter() {
        return chunkFilter;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (done) {
            handle.checkOpen();
            return false;
        }
        cancellation.check();
        NativeMemory.reserve();
        long h = handle.acquire();
        long chunk;
        long[] position = new long[2];
        try {
            chunk = Native.nextChunk(h, position);
        } finally {
            handle.release();
        }
        if (chunk == 0) {
            done = true;
            return false;
        }
        next = new Chunk(this, chunk, chunkIndex++, Math.toIntExact(position[0]), position[1]);
        return true;
    }

    @Override
    public Chunk next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the scan of " + file.location() + " has no more chunks");
        }
        Chunk c = next;
        next = null;
        if (c == null) {
            handle.checkOpen(); // closed on another thread since hasNext()
            throw new IllegalStateException("the scan of " + file.location() + " is closed");
        }
        return c;
    }

    /**
     * How many rows of the chunks not read yet satisfy {@code filter} (every row when it is
     * null): the sum of {@link Compute#count} over them; the scan is at its end afterwards. When
     * the filter is evaluated natively ({@link PreparedFilter#isNativeOnly}), the chunks are
     * read, counted and freed natively, up to 16 per call, never becoming
     * {@link Chunk}s; a chunk the native filter declines comes back as a {@code Chunk} and is
     * counted by {@link PredicateEvaluator}. Otherwise chunk by chunk. Checks the cancellation
     * before every call, as {@link #hasNext()} does before every chunk.
     */
    public long countRemaining(Predicate filter) {
        return countRemaining(filter, COUNT_BATCH, null);
    }

    /** {@link #countRemaining(Predicate)} by {@code maxChunks}, running {@code beforeBatch} (tests) before each call. */
    long countRemaining(Predicate filter, int maxChunks, Runnable beforeBatch) {
        long n = 0;
        // Prepared before the first chunk when possible: a small split (a file of one chunk) is
        // then counted in one call, its chunk never becoming a Chunk.
        PreparedFilter batched = next == null && !done ? nativeOnly(filter) : null;
        while (true) {
            if (batched != null) {
                if (beforeBatch != null) {
                    beforeBatch.run();
                }
                long rows = countBatch(batched, filter, maxChunks);
                if (rows >= 0) {
                    n += rows;
                    if (done) {
                        return n;
                    }
                    continue;
                }
                batched = null; // the filter was closed: with the scan (hasNext throws), or evicted
            }
            if (!hasNext()) {
                return n;
            }
            try (Chunk c = next()) {
                n += filter == null ? c.length() : Compute.count(c, filter);
                batched = nativeOnly(filter);
            }
        }
    }

    /** The filter as prepared for this scan when it counts chunks natively, else null. */
    private PreparedFilter nativeOnly(Predicate filter) {
        if (filter == null || !PredicateEvaluator.isDictFilterEnabled()) {
            return null;
        }
        PreparedFilter p = prepared(filter);
        return p != null && p.isNativeOnly() ? p : null;
    }

    /**
     * One native call of {@link #countRemaining}: the rows of the next chunks {@code prepared}
     * selects, and of the chunk it declines if any, or -1 when {@code prepared} is closed.
     */
    private long countBatch(PreparedFilter prepared, Predicate filter, int maxChunks) {
        cancellation.check();
        // The chunks of a call are freed one by one as they are counted: holding no more native
        // memory at once than one chunk read by hasNext, they are covered by one reservation.
        NativeMemory.reserve();
        long[] out = new long[5];
        long h = handle.acquire();
        long rows;
        try {
            rows = prepared.countChunks(h, maxChunks, out);
        } finally {
            handle.release();
        }
        if (rows < 0) {
            return -1;
        }
        return rows + counted(out, filter);
    }

    /**
     * Takes note of a native count's {@code out} (chunks counted, ended, the declined chunk): the
     * rows {@code filter} selects in the declined chunk, counted the selection way, else 0.
     */
    private long counted(long[] out, Predicate filter) {
        chunkIndex += out[0];
        done = out[1] != 0;
        if (out[2] == 0) {
            return 0;
        }
        try (Chunk declined = new Chunk(this, out[2], chunkIndex++, Math.toIntExact(out[3]), out[4])) {
            return Compute.selection(declined, filter).cardinality();
        }
    }

    /**
     * The scan {@code Native.countSplits} left open (its handle {@code out[5]}, its prepared
     * filter {@code out[6]}, and what it counted in {@code out}), as a scan of {@code file}
     * positioned after the chunks counted; {@code declinedRows} receives the rows of the chunk
     * the filter declined, if any.
     */
    static Scan afterCount(VortexFile file, Schema schema, Split split, Predicate filter, long[] out, long[] declinedRows) {
        Scan scan = new Scan(file, out[5], schema, split, filter);
        try {
            PreparedFilter prepared = PreparedFilter.adopt(out[6], filter, "the scan of " + file.location());
            synchronized (scan.prepared) {
                scan.prepared.put(filter, prepared);
            }
        } catch (RuntimeException | Error e) {
            Native.freeFilter(out[6]);
            Native.freeChunk(out[2]);
            scan.close();
            throw e;
        }
        try {
            declinedRows[0] = scan.counted(out, filter);
        } catch (RuntimeException | Error e) {
            scan.close();
            throw e;
        }
        return scan;
    }

    /** This scan as an Iterable, for for-each loops (it can be iterated once). */
    @Override
    public Iterator<Chunk> iterator() {
        return this;
    }

    /** Rows skipped so far because zone maps ruled out the scan's prune predicate. */
    public long prunedRows() {
        long h = handle.acquire();
        try {
            return Native.prunedRows(h);
        } finally {
            handle.release();
        }
    }

    DictionaryStrings dictionary(long id) {
        synchronized (dictionaries) {
            return dictionaries.get(id);
        }
    }

    void rememberDictionary(DictionaryStrings strings) {
        synchronized (dictionaries) {
            if (dictionaries.size() > 64) {
                dictionaries.clear();
            }
            dictionaries.put(strings.id(), strings);
        }
    }

    /**
     * {@code filter} prepared natively for this scan's chunks (once per scan and filter, by the
     * first chunk or count that needs it), or null once the scan is closed.
     */
    public PreparedFilter prepared(Predicate filter) {
        synchronized (prepared) {
            if (closed) {
                return null;
            }
            PreparedFilter f = prepared.get(filter);
            if (f == null) {
                if (prepared.size() >= 16) {
                    prepared.values().forEach(PreparedFilter::close);
                    prepared.clear();
                }
                long h = handle.acquire();
                try {
                    f = PreparedFilter.prepare(h, schema, filter, "the scan of " + file.location());
                } finally {
                    handle.release();
                }
                prepared.put(filter, f);
            }
            return f;
        }
    }

    /** Ends the scan. Chunks already returned stay valid until closed. Idempotent. */
    @Override
    public void close() {
        // Read once: another thread may be iterating (a close may race with hasNext/next).
        Chunk pending = next;
        next = null;
        if (pending != null) {
            pending.close();
        }
        synchronized (prepared) {
            closed = true;
            prepared.values().forEach(PreparedFilter::close);
            prepared.clear();
        }
        handle.close();
    }
}
