package io.vortex4j.reader.convert;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.internal.NativeHandle;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * Writes rows of a Vortex file or dataset (with its Hive partition columns) to CSV, Parquet or Arrow IPC (natively, with the arrow-rs
 * writers), streaming chunk by chunk. With a filter, each chunk's selection is the reader's own
 * ({@link Compute#selection}: the dictionary filter on dictionary columns), zone maps skip the
 * chunks it rules out, and only selected rows are written.
 *
 * <p>The file is written under a temporary name and moved into place when complete; a failed
 * export leaves nothing behind. An output in an object store ({@link io.vortex4j.reader.Stores})
 * is written to a temporary folder and uploaded, atomically, when {@link #finish} completes it.
 */
public final class Exporter implements AutoCloseable {
    private final NativeHandle handle;
    /** A store output written locally first (nothing for a local file). */
    private final Staging staging;
    private final String out;
    private final Path local;
    private long rows;

    private Exporter(long handle, String out, Path local, Staging staging) {
        this.handle = new NativeHandle(handle, ConvertNative::freeExporter, "export to " + out);
        this.staging = staging;
        this.out = out;
        this.local = local;
    }

    /**
     * Creates an export of {@code columns} (in that order) of {@code file} into {@code out} as
     * {@code format} ({@code csv}, {@code parquet} or {@code arrow}); CSV takes the options
     * {@code header=true|false}, {@code delimiter=C} and {@code null=TEXT} (default empty).
     */
    public static Exporter create(VortexFile file, List<String> columns, Path out, String format, List<String> options) {
        return open(file, columns, new String[columns.size()], false, out.toAbsolutePath().toString(), format, options);
    }

    /**
     * Creates an export of {@code columns} (in that order; file columns and partition columns)
     * of {@code dataset} into {@code out}; see {@link #create(VortexFile, List, Path, String,
     * List)} for the formats. Partition columns are written with their types ({@code INT64} as
     * int64, {@code DATE} as date, {@code UTF8} as utf8), nullable; in a dataset of several
     * files every column is nullable, as in {@link VortexDataset#schema()}.
     */
    public static Exporter create(VortexDataset dataset, List<String> columns, Path out, String format,
            List<String> options) {
        return create(dataset, columns, out.toAbsolutePath().toString(), format, options);
    }

    /**
     * As {@link #create(VortexDataset, List, Path, String, List)}, into {@code out}: a local path
     * or an object's location in a store.
     */
    public static Exporter create(VortexDataset dataset, List<String> columns, String out, String format,
            List<String> options) {
        Schema schema = dataset.schema();
        Set<String> partitions = partitionNames(dataset);
        String[] types = new String[columns.size()];
        for (int i = 0; i < types.length; i++) {
            String c = columns.get(i);
            if (schema.indexOf(c) < 0) {
                throw new VortexException(dataset.location() + ": unknown column '" + c + "'; columns are "
                        + schema.names());
            }
            types[i] = partitions.contains(c) ? partitionType(schema.field(schema.indexOf(c)).type()) : null;
        }
        // The first listed file gives the stored columns' types (the dataset checks the others).
        String first = Listing.list(dataset.location()).files().get(0).path();
        try (VortexFile file = VortexFile.open(first)) {
            boolean nullable = !dataset.fileSchema().equals(file.schema());
            return open(file, columns, types, nullable, out, format, options);
        }
    }

    private static Exporter open(VortexFile file, List<String> columns, String[] partitionTypes, boolean nullable,
            String out, String format, List<String> options) {
        String[] names = columns.toArray(new String[0]);
        String[] opts = options.toArray(new String[0]);
        Staging staging = new Staging();
        try {
            Path local = staging.output(out);
            long h = NativeAccess.withHandle(file,
                    f -> ConvertNative.openExporter(local.toString(), format, opts, f, names, partitionTypes, nullable));
            return new Exporter(h, out, local, staging);
        } catch (RuntimeException e) {
            staging.close();
            throw e;
        }
    }

    private static Set<String> partitionNames(VortexDataset dataset) {
        Set<String> names = new HashSet<>();
        for (Field f : dataset.partitionColumns()) {
            names.add(f.name());
        }
        return names;
    }

    private static String partitionType(DataType type) {
        if (type.equals(DataType.INT64)) {
            return "int64";
        }
        if (type.equals(DataType.DATE)) {
            return "date";
        }
        if (type.equals(DataType.UTF8)) {
            return "utf8";
        }
        throw new VortexException("a partition column of type " + type + " cannot be exported");
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
     * Appends the rows of {@code dataset} that satisfy {@code where} (null: all; over file and
     * partition columns), columns {@code names} in the export's order (the export must have been
     * created for this dataset and these names). Files whose partition values rule {@code where}
     * out are skipped unopened ({@link VortexDataset#splits}); each written row carries its
     * file's partition values. Reports the rows written so far after each chunk.
     */
    public void append(VortexDataset dataset, List<String> names, Predicate where, LongConsumer onProgress) {
        Set<String> partitions = partitionNames(dataset);
        List<String> exported = new ArrayList<>();
        List<String> partitionColumns = new ArrayList<>();
        for (String n : names) {
            (partitions.contains(n) ? partitionColumns : exported).add(n);
        }
        List<String> scanned = new ArrayList<>(exported);
        if (where != null) {
            for (String c : new TreeSet<>(where.columns())) {
                if (!scanned.contains(c) && !partitions.contains(c)) {
                    scanned.add(c);
                }
            }
        }
        if (scanned.isEmpty()) {
            // Only partition columns: scan one file column for the row counts (none would mean all).
            scanned.add(dataset.fileSchema().field(0).name());
        }
        for (Split split : dataset.splits(where)) {
            String[] values = new String[partitionColumns.size()];
            for (int i = 0; i < values.length; i++) {
                Object v = split.partitionValues().get(partitionColumns.get(i));
                values[i] = v == null ? null : v.toString(); // Long digits, LocalDate yyyy-MM-dd, String
            }
            long h = handle.acquire();
            try {
                ConvertNative.setPartitionValues(h, values);
            } finally {
                handle.release();
            }
            try (Scan scan = dataset.scan(split, scanned, where)) {
                Predicate filter = scan.chunkFilter();
                for (Chunk chunk : scan) {
                    try (chunk) {
                        write(chunk, filter == null ? null : Compute.selection(chunk, filter).words());
                    }
                    onProgress.accept(rows);
                }
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
        try {
            long written = handle.finish(ConvertNative::finishExporter);
            staging.publish(out, List.of(local));
            return written;
        } finally {
            staging.close();
        }
    }

    /** Abandons an unfinished export (its partial file is deleted). Idempotent. */
    @Override
    public void close() {
        handle.close();
        staging.close();
    }
}
