package io.vortex4j.reader;

import io.vortex4j.VortexException;
import io.vortex4j.reader.internal.Native;

/**
 * The file bytes kept across scans: how much of the segments scans read the process keeps, so
 * that the next scan of the same columns takes them from memory instead of reading them again.
 *
 * <p>vortex reads a file in segments (a column's codes, values or statistics over some rows);
 * each read copies the bytes out of the operating system's page cache, and for a selective filter
 * over a dictionary column that copy is most of the scan (a count over 10M rows of the {@code
 * trades} sample reads 8.7 MB). The segments scans read are kept, least recently used dropped
 * first, at most {@link #capacityBytes()} bytes in the whole process; a file's segments go when
 * its last open closes. Every open of the same file (two connections, a dataset and a file)
 * shares them; a file rewritten or resized since is another file. A kept segment is shared with
 * the chunks decoded from it, so while they are open it costs nothing extra. Files are expected
 * not to change while open: a dataset checks each file's size and modification time before it
 * scans it.
 *
 * <p>The chunks scans decoded are kept under the same bound (by the columns scanned and the
 * chunk's rows, counted at their arrays' size beside the segments they share): a scan whose
 * chunks are all kept reads and decodes nothing, which made a repeated count over the {@code
 * trades} sample ~1.4× faster.
 *
 * <p>The bound is the system property {@value #PROPERTY} (MiB; 0 keeps nothing), read when the
 * library is first used, default {@value #DEFAULT_MIB}; {@link #setCapacity} changes it at run
 * time. The kept bytes count in {@link NativeMemory#liveBytes()}, and when that is past {@link
 * NativeMemory#limit()} they are dropped before anything else is tried.
 */
public final class SegmentCache {
    /** The system property giving the bound, in MiB. */
    public static final String PROPERTY = "vortex4j.segmentCacheMiB";

    /** The default bound, in MiB. */
    public static final int DEFAULT_MIB = 256;

    /** Why the property could not be used (reported on every use), or null. */
    private static final String PROPERTY_ERROR;

    static {
        String error = null;
        String value = System.getProperty(PROPERTY);
        long mib = DEFAULT_MIB;
        if (value != null && !value.isBlank()) {
            try {
                mib = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                mib = -1;
            }
            if (mib < 0 || mib > Long.MAX_VALUE >> 20) {
                error = "-D" + PROPERTY + "=" + value + ": expected a number of MiB (0 or more)";
                mib = DEFAULT_MIB;
            }
        }
        PROPERTY_ERROR = error;
        Native.setSegmentCacheCapacity(mib << 20);
    }

    private SegmentCache() {}

    /** Applies {@value #PROPERTY} (once); throws {@link VortexException} if it is malformed. */
    static void configure() {
        if (PROPERTY_ERROR != null) {
            throw new VortexException(PROPERTY_ERROR);
        }
    }

    /** How many bytes of segments are kept at most. */
    public static long capacityBytes() {
        configure();
        return Native.segmentCacheCapacity();
    }

    /**
     * Keeps at most {@code bytes} of segments (0: none, every scan reads what it needs), dropping
     * the least recently used ones beyond it now.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public static void setCapacity(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("the segment cache bound must be 0 or more bytes, not " + bytes);
        }
        configure();
        Native.setSegmentCacheCapacity(bytes);
    }

    /** How many bytes of segments are kept now. */
    public static long heldBytes() {
        configure();
        return Native.cachedSegmentBytes();
    }

    /** Drops every kept segment now (the bound stays): for memory pressure. */
    public static void clear() {
        configure();
        Native.clearSegmentCache();
    }
}
