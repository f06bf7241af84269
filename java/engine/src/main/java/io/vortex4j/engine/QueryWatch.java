package io.vortex4j.engine;

import io.vortex4j.reader.Cancellation;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Watches a running native query's cancel flag and deadline ({@code Statement.cancel},
 * {@code setQueryTimeout}) and stops its native execution within a period of the watch
 * ({@value #PERIOD_MILLIS} ms) of either. One daemon thread watches every query.
 */
final class QueryWatch implements AutoCloseable {
    static final long PERIOD_MILLIS = 10;

    private static final ScheduledExecutorService WATCHER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "vortex4j-engine-watch");
        t.setDaemon(true);
        return t;
    });

    private final long query;
    private final Cancellation cancellation;
    private final ScheduledFuture<?> task;
    /** Guarded by this: once closed, the query's handle may be freed and is not touched again. */
    private boolean closed;

    private QueryWatch(long query, Cancellation cancellation) {
        this.query = query;
        this.cancellation = cancellation;
        this.task = WATCHER.scheduleAtFixedRate(this::check, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Watches native query {@code query} for {@code cancellation}; null when nothing can cancel it. */
    static QueryWatch of(long query, Cancellation cancellation) {
        return cancellation == Cancellation.NONE ? null : new QueryWatch(query, cancellation);
    }

    private synchronized void check() {
        if (!closed && cancellation.isCancelled()) {
            EngineNative.cancel(query);
            closed = true;
            task.cancel(false);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        task.cancel(false);
    }
}
