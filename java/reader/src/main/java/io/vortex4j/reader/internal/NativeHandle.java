package io.vortex4j.reader.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
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
 * <p>Reads of native memory the handle owns (column views over a chunk's buffers) are not
 * bracketed, which would cost an atomic update per value: they read first and call {@link
 * #checkRead()} after. The native allocator never unmaps memory Java can reach ({@code
 * rust/src/runtime/memory.rs}), so a read racing with the free returns some bytes but cannot fault,
 * and the check, ordered after the read, throws instead of returning them: the close sets the
 * closed flag before it frees anything, so a check that still sees the handle open proves that the
 * read before it saw live memory. Objects exposing native memory keep a reference to the handle, so
 * the Cleaner cannot free it while they are reachable.
 */
public final class NativeHandle implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int CLOSED = Integer.MIN_VALUE;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NativeHandle.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long handle;
    private final String what;
    /** In-flight calls, with the sign bit set once closed. */
    private volatile int state;
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
            int s = state;
            if (s < 0) {
                throw closedException();
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                return handle;
            }
        }
    }

    /** Ends a call started with {@link #acquire()}. */
    public void release() {
        if ((int) STATE.getAndAdd(this, -1) - 1 == CLOSED) {
            cleanable.clean();
        }
    }

    /**
     * Runs the native call that completes this handle's work (a writer's or exporter's {@code
     * finish}) while the handle is held, then closes it; returns the call's result. A failed
     * call leaves the handle open, so {@link #close()} still abandons the work.
     */
    public long finish(java.util.function.LongUnaryOperator call) {
        long h = acquire();
        long result;
        try {
            result = call.applyAsLong(h);
        } finally {
            release();
        }
        close();
        return result;
    }

    /** Throws {@link IllegalStateException} if closed. */
    public void checkOpen() {
        if (state < 0) {
            throw closedException();
        }
    }

    /**
     * Validates the reads of this handle's memory made before the call: throws {@link
     * IllegalStateException} if the handle was closed, in which case what they read must not be
     * used. One volatile read, as cheap as {@link #checkOpen()}.
     */
    public void checkRead() {
        // The data reads above must not move below the flag read.
        VarHandle.loadLoadFence();
        if (state < 0) {
            throw closedException();
        }
    }

    /** True until {@link #close()}. */
    public boolean isOpen() {
        return state >= 0;
    }

    /** What this handle is, for messages. */
    public String what() {
        return what;
    }

    /** Frees the handle now, or after the in-flight calls end. Idempotent. */
    @Override
    public void close() {
        while (true) {
            int s = state;
            if (s < 0) {
                return;
            }
            if (STATE.compareAndSet(this, s, s | CLOSED)) {
                // Every store of the free (and of memory reusing it) comes after the flag.
                VarHandle.fullFence();
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
