package io.vortex4j.reader.convert;

import io.vortex4j.reader.internal.Native;

/**
 * The JNI surface of conversion and export ({@code rust/src/jni/convert.rs} over {@code
 * rust/src/convert/}). Handles are owned by {@link Converter} and {@link Exporter}, which free
 * each exactly once. Not part of the public API.
 */
final class ConvertNative {
    static {
        Native.ensureLoaded();
    }

    private ConvertNative() {}

    /** Starts converting {@code inputs} into {@code out} with {@code key=value} options. */
    static native long openConverter(String[] inputs, String out, String[] options);

    /** Converts up to {@code batches} batches; false when every input is read. */
    static native boolean stepConverter(long converter, int batches);

    /** {@code {rows, bytesDone, bytesTotal, badRows}}. */
    static native long[] converterProgress(long converter);

    /**
     * Finishes the output; returns {@code Object[]{long[]{rows, badRows}, String[] paths,
     * long[] rows, long[] bytes}}. The handle must still be freed.
     */
    static native Object[] finishConverter(long converter);

    /** Frees a converter; an unfinished output file is deleted. */
    static native void freeConverter(long converter);

    /**
     * Creates an export of {@code columns} into {@code path}: {@code partitionTypes[i]} is null
     * for a column of {@code file}, else the type ({@code int64}, {@code date}, {@code utf8}) of a
     * partition column; with {@code nullable}, the file's columns are exported as nullable.
     */
    static native long openExporter(String path, String format, String[] options, long file, String[] columns,
            String[] partitionTypes, boolean nullable);

    /** Sets the partition columns' values (as text, null for null) of the rows exported next. */
    static native void setPartitionValues(long exporter, String[] values);

    /**
     * Appends the rows of {@code chunk} that {@code selection} selects (null: all); the chunk's
     * first columns are the exported file columns, in export order.
     */
    static native void exportChunk(long exporter, long chunk, long[] selection);

    /** Completes the exported file; returns the rows written. The handle must still be freed. */
    static native long finishExporter(long exporter);

    /** Frees an exporter; an unfinished file is deleted. */
    static native void freeExporter(long exporter);
}
