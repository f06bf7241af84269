package io.vortex4j.calcite;

import io.vortex4j.reader.NativeMemory;
import io.vortex4j.reader.ReaderCache;
import io.vortex4j.reader.SegmentCache;

/** What a stopped query may leave behind, measured without what the process keeps on purpose. */
public final class NativeHeld {
    private NativeHeld() {}

    /**
     * The native bytes held once the process's bounded caches are dropped: the layout readers
     * ({@link ReaderCache}) and segments ({@link SegmentCache}) of the files scanned are kept on
     * purpose, and a query that got further into its files than the last one keeps more of them
     * (how far a cancelled query gets depends on the machine's load).
     */
    public static long liveWithoutKeptCaches() {
        int files = ReaderCache.capacity();
        ReaderCache.setCapacity(0);
        ReaderCache.setCapacity(files);
        SegmentCache.clear();
        return NativeMemory.liveBytes();
    }
}
