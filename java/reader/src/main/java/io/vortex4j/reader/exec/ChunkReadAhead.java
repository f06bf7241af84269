package io.vortex4j.reader.exec;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chunks of a dataset's splits for a row consumer, in split and chunk order, each with its
 * selection of the filter already computed, read, filtered and exported ahead on worker threads
 * while the consumer (Calcite building rows, say) works on earlier ones.
 *
 * <p>With {@code threads} of 1 everything happens on the consumer's thread, as a plain loop over
 * the splits' scans would do it. With more, {@code threads - 1} workers (daemon threads named
 * {@code vortex4j-readahead-N}, under the consumer's {@link Cancellation}) take splits in order;
 * each keeps at most {@value #CHUNKS_AHEAD} finished chunks of its split waiting, and at most
 * {@code threads} splits are open at once, so native memory held ahead stays bounded. Chunks
 * whose selection is empty never reach the consumer.
 *
 * <p>A failure on a worker reaches the consumer where the chunk it was reading would have: after
 * every chunk before it. {@link #close()} stops the workers, waits until none runs and closes
 * every chunk and scan not handed out; chunks handed out are the consumer's to close. Not
 * thread-safe: one consumer.
 */
public final class ChunkReadAhead implements AutoCloseable {
    /** Finished chunks a worker keeps waiting per split. */
    static final int CHUNKS_AHEAD = 2;

    /** How often a waiting thread looks whether the read-ahead was closed, in milliseconds. */
    private static final long POLL_MILLIS = 20;

    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();

    private static final ThreadFactory FACTORY = r -> {
        Thread t = new Thread(r, "vortex4j-readahead-" + THREAD_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    };

    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE,
            SplitExecutor.KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), FACTORY);

    /** A chunk ready for the consumer: its split (for partition values) and selection. */
    public static final class Ready {
        private final Split split;
        private final Chunk chunk;
        private final Bitmap selection;

        Ready(Split split, Chunk chunk, Bitmap selection) {
            this.split = split;
            this.chunk = chunk;
            this.selection = selection;
        }

        /** The split the chunk belongs to. */
        public Split split() {
            return split;
        }

        /** The chunk; the consumer closes it. */
        public Chunk chunk() {
            return chunk;
        }

        /** The rows the filter selects (never empty), or null when every row is selected. */
        public Bitmap selection() {
            return selection;
        }
    }

    /** Marks the end of a split in its queue. */
    private static final Object END = new Object();

    private final VortexDataset dataset;
    private final List<Split> splits;
    private final List<String> columns;
    private final Predicate filter;
    private final int exported;
    private final Cancellation cancellation = Cancellation.current();

    /** Per split, what its worker produced: {@link Ready}, then {@link #END} or a Throwable. */
    private final List<BlockingQueue<Object>> queues;
    private final AtomicInteger nextSplit = new AtomicInteger();
    /** Permits to open one more split ahead; the consumer returns one per split it finishes. */
    private final java.util.concurrent.Semaphore openSplits;
    private final CountDownLatch workersDone;
    private volatile boolean closed;

    /** The split the consumer reads; in inline mode also its open scan. */
    private int consuming;
    private Scan inlineScan;
    private Predicate inlineFilter;

    private ChunkReadAhead(VortexDataset dataset, List<Split> splits, List<String> columns, Predicate filter,
            int exported, int workers) {
        this.dataset = dataset;
        this.splits = splits;
        this.columns = columns;
        this.filter = filter;
        this.exported = exported;
        this.workersDone = new CountDownLatch(workers);
        this.openSplits = new java.util.concurrent.Semaphore(workers + 1);
        this.queues = new ArrayList<>(workers == 0 ? 0 : splits.size());
        for (int i = 0; workers > 0 && i < splits.size(); i++) {
            queues.add(new ArrayBlockingQueue<>(CHUNKS_AHEAD));
        }
    }

    /**
     * Reads {@code splits} of {@code dataset} (its {@link VortexDataset#splits} for {@code
     * filter}), scanning {@code columns} and selecting the rows {@code filter} (may be null)
     * keeps; the first {@code exported} columns are exported ahead ({@link Chunk#column}), the
     * rest (filter-only columns) are only filtered on. {@code threads} ≥ 1 bounds the threads
     * used, the consumer's included.
     */
    public static ChunkReadAhead open(VortexDataset dataset, List<Split> splits, List<String> columns,
            Predicate filter, int exported, int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        int workers = Math.min(threads - 1, splits.size());
        ChunkReadAhead ahead = new ChunkReadAhead(dataset, splits, List.copyOf(columns), filter, exported, workers);
        for (int w = 0; w < workers; w++) {
            POOL.execute(() -> {
                try {
                    ahead.cancellation.call(() -> {
                        ahead.work();
                        return null;
                    });
                } finally {
                    ahead.workersDone.countDown();
                }
            });
        }
        return ahead;
    }

    /**
     * The next chunk with selected rows, in order, or null after the last one. Throws what
     * reading or filtering a chunk threw, after every chunk before it (the read-ahead is closed
     * then).
     */
    public Ready next() {
        if (closed) {
            throw new IllegalStateException("the read-ahead over " + dataset.location() + " is closed");
        }
        try {
            return queues.isEmpty() ? nextInline() : nextQueued();
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private Ready nextInline() {
        while (true) {
            if (inlineScan == null) {
                if (consuming == splits.size()) {
                    return null;
                }
                inlineScan = dataset.scan(splits.get(consuming), columns, filter);
                inlineFilter = inlineScan.chunkFilter();
            }
            if (!inlineScan.hasNext()) {
                inlineScan.close();
                inlineScan = null;
                consuming++;
                continue;
            }
            Ready r = ready(splits.get(consuming), inlineScan.next(), inlineFilter);
            if (r != null) {
                return r;
            }
        }
    }

    private Ready nextQueued() {
        while (consuming < splits.size()) {
            Object o = take(queues.get(consuming));
            if (o == END) {
                consuming++;
                openSplits.release();
            } else if (o instanceof Throwable t) {
                throw SplitExecutor.rethrow(t);
            } else {
                return (Ready) o;
            }
        }
        return null;
    }

    /** The chunk with its selection computed and columns exported, or null (closed) when none is selected. */
    private Ready ready(Split split, Chunk chunk, Predicate chunkFilter) {
        try {
            Bitmap selection = chunkFilter == null ? null : Compute.selection(chunk, chunkFilter);
            if (selection != null && selection.cardinality() == 0) {
                chunk.close();
                return null;
            }
            for (int i = 0; i < exported; i++) {
                chunk.column(i);
            }
            return new Ready(split, chunk, selection);
        } catch (RuntimeException | Error e) {
            chunk.close();
            throw e;
        }
    }

    /** A worker: takes splits in order and fills their queues until none is left or closed. */
    private void work() {
        while (!closed) {
            if (!acquire()) {
                return;
            }
            int i = nextSplit.getAndIncrement();
            if (i >= splits.size()) {
                openSplits.release();
                return;
            }
            BlockingQueue<Object> queue = queues.get(i);
            Object last = END;
            try (Scan scan = dataset.scan(splits.get(i), columns, filter)) {
                Predicate chunkFilter = scan.chunkFilter();
                while (!closed && scan.hasNext()) {
                    Ready r = ready(splits.get(i), scan.next(), chunkFilter);
                    if (r != null && !put(queue, r)) {
                        r.chunk().close();
                    }
                }
            } catch (Throwable t) {
                last = t;
            }
            put(queue, last);
            if (last != END) {
                return; // the consumer stops at the failure; later splits are not needed
            }
        }
    }

    private boolean acquire() {
        try {
            while (!closed) {
                if (openSplits.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** Puts {@code item}, waiting for room; false when closed (or interrupted) first. */
    private boolean put(BlockingQueue<Object> queue, Object item) {
        try {
            while (!closed) {
                if (queue.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** The next item of {@code queue}, checking the consumer's cancellation while it waits. */
    private Object take(BlockingQueue<Object> queue) {
        try {
            while (true) {
                Object o = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (o != null) {
                    return o;
                }
                cancellation.check();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.vortex4j.CancelledException("interrupted while reading " + dataset.location(), false);
        }
    }

    /**
     * Stops the workers, waits until none runs, and closes every chunk and scan not handed out.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (inlineScan != null) {
            inlineScan.close();
            inlineScan = null;
        }
        boolean interrupted = false;
        while (true) {
            try {
                workersDone.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        for (BlockingQueue<Object> queue : queues) {
            for (Object o; (o = queue.poll()) != null; ) {
                if (o instanceof Ready r) {
                    r.chunk().close();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
