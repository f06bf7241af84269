package io.vortex4j.reader;

import io.vortex4j.VortexException;
import io.vortex4j.reader.internal.Native;

/**
 * The native layout readers kept across scans: how many files' readers the process keeps at most.
 *
 * <p>A scan of a file reads through the file's layout reader, a tree that also keeps what it
 * read and decoded once: the dictionaries, zone maps and per-dictionary expression results. Built
 * anew for every scan, it costs each scan a fresh read and decode of the dictionaries, which
 * dominates scans of small files (a dataset of many files, the splits of one file). Kept for every
 * open file, it would hold that memory for as long as the file is open, and a dataset keeps all
 * its files open. So the readers of the most recently scanned files are kept, at most {@link
 * #capacity()} files in the whole process, least recently used dropped first; a file's reader is
 * also dropped when the file and its last scan are closed. What one reader holds is the file's
 * dictionaries as stored (each keeping alive the read window it came in, at most 256 KiB) and its
 * zone maps: ~33 KB for a 100,000-row file of the {@code trades} sample.
 *
 * <p>The bound is the system property {@value #PROPERTY} (files; 0 keeps none), read when the
 * library is first used, default {@value #DEFAULT_FILES}; {@link #setCapacity} changes it at run
 * time. Readers are counted in {@link NativeMemory#liveBytes()}.
 */
public final class ReaderCache {
    /** The system property giving the bound, in files. */
    public static final String PROPERTY = "vortex4j.readerCacheFiles";

    /** The default bound, in files. */
    public static final int DEFAULT_FILES = 256;

    /** Why the property could not be used (reported on every use), or null. */
    private static final String PROPERTY_ERROR;

    static {
        String error = null;
        String value = System.getProperty(PROPERTY);
        int files = DEFAULT_FILES;
        if (value != null && !value.isBlank()) {
            try {
                files = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                files = -1;
            }
            if (files < 0) {
                error = "-D" + PROPERTY + "=" + value + ": expected a number of files (0 or more)";
                files = DEFAULT_FILES;
            }
        }
        PROPERTY_ERROR = error;
        Native.setReaderCacheCapacity(files);
    }

    private ReaderCache() {}

    /** Applies {@value #PROPERTY} (once); throws {@link VortexException} if it is malformed. */
    static void configure() {
        if (PROPERTY_ERROR != null) {
            throw new VortexException(PROPERTY_ERROR);
        }
    }

    /** How many files' readers are kept at most. */
    public static int capacity() {
        configure();
        return (int) Native.readerCacheCapacity();
    }

    /**
     * Keeps at most {@code files} files' readers (0: none, every scan builds its own), dropping the
     * least recently used ones beyond it now.
     *
     * @throws IllegalArgumentException if {@code files} is negative
     */
    public static void setCapacity(int files) {
        if (files < 0) {
            throw new IllegalArgumentException("the reader cache bound must be 0 or more files, not " + files);
        }
        configure();
        Native.setReaderCacheCapacity(files);
    }

    /** How many files' readers are kept now. */
    public static int size() {
        configure();
        return (int) Native.cachedReaders();
    }
}
