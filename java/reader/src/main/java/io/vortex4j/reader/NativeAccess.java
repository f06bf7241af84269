package io.vortex4j.reader;

import java.util.function.LongFunction;

/**
 * The native handles of open files and chunks, for vortex4j's own modules that pass them to
 * their native entries (conversion and export, the Arrow C Data Interface). Not a user API.
 *
 * <p>The handle is valid only inside {@code call}: it is acquired before and released after,
 * so a concurrent close waits for the call instead of freeing memory under it.
 */
public final class NativeAccess {
    private NativeAccess() {}

    /** Runs {@code call} with the native handle of {@code file}; throws if the file is closed. */
    public static <T> T withHandle(VortexFile file, LongFunction<T> call) {
        long h = file.handle().acquire();
        try {
            return call.apply(h);
        } finally {
            file.handle().release();
        }
    }

    /** Runs {@code call} with the native handle of {@code chunk}; throws if the chunk is closed. */
    public static <T> T withHandle(Chunk chunk, LongFunction<T> call) {
        long h = chunk.handle().acquire();
        try {
            return call.apply(h);
        } finally {
            chunk.handle().release();
        }
    }
}
