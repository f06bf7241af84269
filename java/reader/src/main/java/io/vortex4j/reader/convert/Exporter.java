package io.vortex4j.reader.convert;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Compute;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Predicate;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * Writes rows of a Vortex file to CSV, Parquet or Arrow IPC (natively, with the arrow-rs
 * writers), streaming chunk by chunk. With a filter, each chunk's selection is the reader's own
 * ({@link Compute#selection}: the dictionary filter on dictionary columns), zone maps skip the
 * chunks it rules out, and only selected rows are written.
 *
 * <p>The file is written under a temporary name and moved into place when complete; a failed
 * export leaves nothing behind.
 */
public final class Exporter implements AutoCloseable {
    private final NativeHandle handle;
    private long rows;

    private Exporter(long handle, Path out) {
        this.handle = new NativeHandle(handle, ConvertNative::freeExporter, "export to " + out);
    }

    /**
     * Creates an export of {@code columns} (in that order) of {@code file} into {@code out} as
     * {@code format} ({@code csv}, {@code parquet} or {@code arrow}); CSV takes the options
     * {@code header=true|false}, {@code delimiter=C} and {@code null=TEXT} (default empty).
     */
    public static Exporter create(VortexFile file, List<String> columns, Path out, String format, List<String> options) {
        Path absolute = out.toAbsolutePath();
        String[] names = columns.toArray(new String[0]);
        String[] opts = options.toArray(new String[0]);
        long h = NativeAccess.withHandle(file, f -> ConvertNative.openExporter(absolute.toString(), format, opts, f, names));
        return new Exporter(h, absolute);
    }

    /**
     * Exports the rows of {@code file} that satisfy {@code where} (null: every row), columns
     * {@code columns} (empty: all), into {@code out}; reports rows written after each chunk.
     * Returns the number of rows written.
     */
    public static long export(VortexFile file, List<String> columns, Predicate where, Path out, String format,
            List<String> options, LongConsumer onProgress) {
        List<String> names = columns.isEmpty() ? file.schema().names() : columns;
        try (Exporter e = create(file, names, out, format, options)) {
            e.append(file, names, where, onProgress);
            return e.finish();
        }
    }

    /**
     * Appends the rows of {@code file} that satisfy {@code where} (null: all), columns {@code
     * names} in the export's order; reports the rows written so far after each chunk.
     */
    public void append(VortexFile file, List<String> names, Predicate where, LongConsumer onProgress) {
        // The filter may name columns that are not exported: they are scanned after the others.
        List<String> scanned = new ArrayList<>(names);
        if (where != null) {
            for (String c : new TreeSet<>(where.columns())) {
                if (!scanned.contains(c)) {
                    scanned.add(c);
                }
            }
        }
        try (Scan scan = file.scan(scanned, where)) {
            for (Chunk chunk : scan) {
                try (chunk) {
                    write(chunk, where == null ? null : Compute.selection(chunk, where).words());
                }
                onProgress.accept(rows);
            }
        }
    }

    /**
     * Appends the rows of {@code chunk} that {@code selection} (bitmap words, LSB first; null:
     * all) selects; the exported columns are the chunk's first ones, in the export's order.
     */
    public void write(Chunk chunk, long[] selection) {
        long h = handle.acquire();
        try {
            NativeAccess.withHandle(chunk, c -> {
                ConvertNative.exportChunk(h, c, selection);
                return null;
            });
        } finally {
            handle.release();
        }
        rows += selection == null ? chunk.length() : cardinality(selection);
    }

    private static long cardinality(long[] words) {
        long n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** Completes the file and closes the exporter; returns the rows written. */
    public long finish() {
        return handle.finish(ConvertNative::finishExporter);
    }

    /** Abandons an unfinished export (its partial file is deleted). Idempotent. */
    @Override
    public void close() {
        handle.close();
    }
}
