package io.vortex4j.reader;

import io.vortex4j.CancelledException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A request to stop reading: a flag another thread may set and a deadline. A {@link Scan}
 * checks the cancellation that was current on its thread when it was opened ({@link #call}) each
 * time it is about to read a chunk, and throws {@link CancelledException} once the flag is set or
 * the deadline has passed, so a query's scans stop within one chunk of either. Code that opens
 * scans internally (aggregations, SQL engines) is covered without passing the cancellation
 * through every call:
 *
 * <pre>{@code
 * Cancellation c = Cancellation.of(cancelFlag, 30_000);   // a 30 s timeout
 * long n = c.call(() -> GroupAggregate.run(file, ...));    // every scan opened inside checks c
 * }</pre>
 *
 * Immutable and thread-safe; {@link #NONE} never stops anything.
 */
public final class Cancellation {
    /** Never cancelled, no deadline. */
    public static final Cancellation NONE = new Cancellation(null, Long.MAX_VALUE, 0);

    private static final ThreadLocal<Cancellation> CURRENT = ThreadLocal.withInitial(() -> NONE);

    private final AtomicBoolean flag;
    /** {@link System#nanoTime()} of the deadline, or {@code Long.MAX_VALUE}. */
    private final long deadline;
    private final long timeoutMillis;

    private Cancellation(AtomicBoolean flag, long deadline, long timeoutMillis) {
        this.flag = flag;
        this.deadline = deadline;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Cancelled when {@code flag} (may be null) becomes true, or {@code timeoutMillis} from now
     * (none when {@code timeoutMillis <= 0}).
     */
    public static Cancellation of(AtomicBoolean flag, long timeoutMillis) {
        if (flag == null && timeoutMillis <= 0) {
            return NONE;
        }
        long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : Long.MAX_VALUE;
        return new Cancellation(flag, deadline, Math.max(0, timeoutMillis));
    }

    /** The cancellation scans opened now on this thread will check ({@link #NONE} by default). */
    public static Cancellation current() {
        return CURRENT.get();
    }

    /** Runs {@code body} with this cancellation current on this thread, then restores the previous one. */
    public <T> T call(Supplier<T> body) {
        Cancellation previous = CURRENT.get();
        CURRENT.set(this);
        try {
            return body.get();
        } finally {
            CURRENT.set(previous);
        }
    }

    /** True once the flag is set or the deadline has passed. */
    public boolean isCancelled() {
        return this != NONE && ((flag != null && flag.get()) || System.nanoTime() - deadline >= 0);
    }

    /**
     * Throws {@link CancelledException} once cancelled ({@link CancelledException#isTimeout()} when
     * the deadline passed first).
     */
    public void check() {
        if (this == NONE) {
            return;
        }
        if (flag != null && flag.get()) {
            throw new CancelledException("the query was cancelled", false);
        }
        if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
            throw new CancelledException("the query timed out after " + timeoutMillis + " ms", true);
        }
    }
}
