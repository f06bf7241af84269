package io.vortex4j.reader;

import io.vortex4j.VortexException;
import io.vortex4j.reader.internal.Native;
import java.util.Locale;

/**
 * The native memory vortex4j holds outside the Java heap, and the limit that keeps it bounded.
 *
 * <p>Files, scans and chunks hold native memory (footers, read windows, decoded columns) that
 * the garbage collector does not see: a program that leaves chunks to the collector instead of
 * closing them would otherwise grow without bound while its heap looks empty. As {@code java.nio}
 * does for direct buffers, vortex4j counts the bytes its native code holds ({@link #liveBytes()})
 * and, before it reads more (opening a file, reading a chunk, exporting a column), checks them
 * against {@link #limit()}: past the limit it drops the {@link SegmentCache}, then runs {@link
 * System#gc()}, waits up to about a second for the cleaners to free what was unreachable, and
 * fails with a {@link VortexException} naming the figures if the memory is still in use.
 *
 * <p>The limit is the system property {@value #LIMIT_PROPERTY} (bytes, or with a {@code k},
 * {@code m} or {@code g} suffix, e.g. {@code -Dvortex4j.maxNativeMemory=2g}), read once; by
 * default the larger of 1 GiB and the maximum heap size.
 */
public final class NativeMemory {
    /** The system property setting the limit. */
    public static final String LIMIT_PROPERTY = "vortex4j.maxNativeMemory";

    private static final long LIMIT;
    /** Why the property could not be used (reported on every use), or null. */
    private static final String LIMIT_ERROR;

    static {
        long limit = defaultLimit();
        String error = null;
        try {
            limit = parseLimit(System.getProperty(LIMIT_PROPERTY));
        } catch (VortexException e) {
            error = e.getMessage();
        }
        LIMIT = limit;
        LIMIT_ERROR = error;
    }

    /** Waits for the cleaners after a collection: 1 + 2 + ... + 512 ms, about a second. */
    private static final int MAX_SLEEPS = 10;
    private static final Object COLLECTING = new Object();

    private NativeMemory() {}

    /**
     * Bytes held by vortex4j's native code now: every live allocation of the library (chunks'
     * columns and read windows, exports, files' footers, dictionary caches), as requested from its
     * allocator. Cheap (one native call reading a counter); for monitoring, e.g. as a gauge.
     */
    public static long liveBytes() {
        return Native.liveNativeBytes();
    }

    /**
     * The limit checked before vortex4j reads more (see the class comment).
     *
     * @throws VortexException if {@value #LIMIT_PROPERTY} is malformed
     */
    public static long limit() {
        checkProperty();
        return LIMIT;
    }

    private static void checkProperty() {
        if (LIMIT_ERROR != null) {
            throw new VortexException(LIMIT_ERROR);
        }
    }

    /**
     * Called before a native call that may hold more memory: returns at once while {@link
     * #liveBytes()} is within the limit, else collects garbage and waits for the cleaners.
     *
     * @throws VortexException if the memory stays above the limit (it is reachable: chunks,
     *     scans or files still open)
     */
    static void reserve() {
        checkProperty();
        ReaderCache.configure();
        SegmentCache.configure();
        if (Native.liveNativeBytes() <= LIMIT) {
            return;
        }
        synchronized (COLLECTING) {
            long live = Native.liveNativeBytes();
            if (live <= LIMIT) {
                return; // another thread collected meanwhile
            }
            // Kept segments are the memory to give back first: dropping them loses no work.
            SegmentCache.clear();
            live = Native.liveNativeBytes();
            if (live <= LIMIT) {
                return;
            }
            System.gc();
            long sleep = 1;
            for (int i = 0; i < MAX_SLEEPS; i++) {
                live = Native.liveNativeBytes();
                if (live <= LIMIT) {
                    return;
                }
                try {
                    Thread.sleep(sleep);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                sleep <<= 1;
            }
            throw new VortexException("vortex4j holds " + mib(live) + " of native memory, more than its limit of "
                    + mib(LIMIT) + " even after a garbage collection: close chunks, scans and files when done,"
                    + " or raise -D" + LIMIT_PROPERTY);
        }
    }

    private static long defaultLimit() {
        return Math.max(1L << 30, Runtime.getRuntime().maxMemory());
    }

    static long parseLimit(String value) {
        if (value == null || value.isBlank()) {
            return defaultLimit();
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        char last = v.charAt(v.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            unit = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n > 0 && n <= Long.MAX_VALUE / unit) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new VortexException("-D" + LIMIT_PROPERTY + "=" + value
                + ": expected a positive number of bytes, optionally with k, m or g");
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
