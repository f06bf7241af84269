package io.vortex4j.arrow;

import io.vortex4j.reader.internal.Native;

/**
 * The JNI surface of the Arrow C Data Interface ({@code rust/src/jni/convert.rs} over {@code
 * rust/src/convert/ffi.rs}). Addresses are those of Arrow Java's {@code ArrowArray} and {@code
 * ArrowSchema} structs; what the native side writes there, Arrow Java's import owns (and
 * releases). Selections are bitmap words (LSB first), null for every row. Not a public API.
 */
final class ArrowNative {
    static {
        Native.ensureLoaded();
    }

    private ArrowNative() {}

    /** Writes the struct schema of {@code columns} of {@code file}, as exported, to {@code schema}. */
    static native void exportSchema(long file, String[] columns, long schema);

    /** Whether column {@code column} of {@code chunk} is a dictionary of strings. */
    static native boolean isDictionary(long chunk, int column);

    /** Writes the selected rows of a column to the C array at {@code array}. */
    static native void exportColumn(long chunk, int column, long[] selection, long array);

    /**
     * Writes the Int32 dictionary codes of the selected rows of a utf8/binary column to {@code
     * array} and, unless the chunk's dictionary is {@code knownId}, the dictionary to {@code
     * dictArray}. Returns the chunk's dictionary id.
     */
    static native long exportCodes(long chunk, int column, long[] selection, long knownId, long array, long dictArray);

    /** Creates a Vortex file for batches of the C schema at {@code schema} (moved). */
    static native long openWriter(String path, long schema);

    /** Appends the exported record batch (struct array and schema; both moved). */
    static native void writeBatch(long writer, long array, long schema);

    /** Finishes the file; returns its size. The handle must still be freed. */
    static native long finishWriter(long writer);

    /** Frees a writer; an unfinished file is deleted. */
    static native void freeWriter(long writer);
}
