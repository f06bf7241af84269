package io.vortex4j.reader.internal;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * Owns one native handle and frees it exactly once: on {@link #close()}, or by the {@link Cleaner}
 * when the handle becomes unreachable, whichever comes first.
 *
 * <p>Calls that pass the handle to native code bracket it with {@link #acquire()} and {@link
 * #release()}; a close while such calls are in flight defers the free to the last release, so a
 * handle is never freed under a running native call. Every use after close throws {@link
 * IllegalStateException}.
 *
 * <p>Objects that expose native memory (column views over a chunk's buffers) keep a reference to
 * the handle, so the memory cannot be cleaned while they are reachable.
 */
public final class NativeHandle implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int CLOSED = Integer.MIN_VALUE;

    private final long handle;
    private final String what;
    /** In-flight calls, with the sign bit set once closed. */
    private final AtomicInteger state = new AtomicInteger();
    private final Cleaner.Cleanable cleanable;

    /**
     * Takes ownership of {@code handle}; {@code free} releases it and {@code what} names the
     * resource in error messages (e.g. "chunk 3 of /data/t.vortex").
     */
    public NativeHandle(long handle, LongConsumer free, String what) {
        if (handle == 0) {
            throw new IllegalArgumentException("null native handle for " + what);
        }
        this.handle = handle;
        this.what = what;
        this.cleanable = CLEANER.register(this, new Free(handle, free));
    }

    /** Marks a native call as in flight and returns the handle; throws if closed. */
    public long acquire() {
        while (true) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                throw closedException();
            }
            if (state.compareAndSet(s, s + 1)) {
                return handle;
            }
        }
    }

    /** Ends a call started with {@link #acquire()}. */
    public void release() {
        if (state.decrementAndGet() == CLOSED) {
            cleanable.clean();
        }
    }

    /** Throws {@link IllegalStateException} if closed. Cheap enough for per-value checks. */
    public void checkOpen() {
        if (state.get() < 0) {
            throw closedException();
        }
    }

    /** True until {@link #close()}. */
    public boolean isOpen() {
        return state.get() >= 0;
    }

    /** What this handle is, for messages. */
    public String what() {
        return what;
    }

    /** Frees the handle now, or after the in-flight calls end. Idempotent. */
    @Override
    public void close() {
        while (true) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                return;
            }
            if (state.compareAndSet(s, s | CLOSED)) {
                if (s == 0) {
                    cleanable.clean();
                }
                return;
            }
        }
    }

    private IllegalStateException closedException() {
        return new IllegalStateException(what + " is closed");
    }

    /** The cleaning action: must not reference the NativeHandle, or it would never be cleaned. */
    private static final class Free implements Runnable {
        private final long handle;
        private final LongConsumer free;

        Free(long handle, LongConsumer free) {
            this.handle = handle;
            this.free = free;
        }

        @Override
        public void run() {
            free.accept(handle);
        }
    }
}
