package io.vortex4j.reader;

import io.vortex4j.reader.array.DictionaryStrings;
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
        this.handle = new NativeHandle(handle, Native::freeScan, "scan of " + file.path());
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
            throw new NoSuchElementException("the scan of " + file.path() + " has no more chunks");
        }
        Chunk c = next;
        next = null;
        if (c == null) {
            handle.checkOpen(); // closed on another thread since hasNext()
            throw new IllegalStateException("the scan of " + file.path() + " is closed");
        }
        return c;
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
     * {@code filter} prepared natively for this scan's chunks (once per scan and filter, on the
     * first chunk that needs it), or null once the scan is closed.
     */
    public PreparedFilter prepared(Chunk chunk, Predicate filter) {
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
                f = PreparedFilter.prepare(chunk, filter);
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
