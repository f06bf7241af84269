package io.vortex4j.arrow;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A scan of a Vortex file as an Arrow {@link ArrowReader}: one {@link VectorSchemaRoot} batch
 * per chunk (its selected rows, with a filter), handed over through Arrow's C Data Interface.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      VortexFile file = VortexFile.open(path);
 *      ArrowReader reader = VortexArrowReader.open(file, List.of("sym", "price"), Predicate.eq("sym", "AAPL"), allocator)) {
 *     while (reader.loadNextBatch()) {
 *         VectorSchemaRoot root = reader.getVectorSchemaRoot();
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Columns are decoded natively by vortex-arrow; buffers already in Arrow's layout (primitive
 * values, validity bits) reach Java without a copy, and their native memory is freed when the
 * vectors release it (Arrow's allocator accounts for it meanwhile). A string column whose first
 * chunk is dictionary-encoded is an Arrow dictionary-encoded column ({@code Int32} indices; the
 * dictionary by {@link #lookup} with the column's position as id): the dictionary vector is
 * loaded only when a chunk's dictionary differs from the previous one, so chunks sharing a
 * dictionary (as the reference writer writes them) share one Arrow dictionary. Filters use the
 * reader's own evaluation ({@link Compute#selection}, the dictionary filter on dictionary
 * columns); zone maps skip the chunks they rule out. Meant for one thread.
 */
public final class VortexArrowReader extends ArrowReader {
    private static final ArrowType.Int INDEX_TYPE = new ArrowType.Int(32, true);

    private final VortexFile file;
    private final String[] names;
    private final Predicate filter;
    private final Scan scan;
    private final boolean[] dictionary;
    /** The native id of the dictionary loaded per dictionary column; 0 before the first. */
    private final long[] loadedDictionary;
    private Chunk pending;
    private long bytesRead;

    private VortexArrowReader(VortexFile file, List<String> columns, Predicate filter, BufferAllocator allocator) {
        super(allocator);
        this.file = file;
        this.names = (columns.isEmpty() ? file.schema().names() : columns).toArray(new String[0]);
        this.filter = filter;
        this.scan = file.scan(Arrays.asList(names), filter);
        this.dictionary = new boolean[names.length];
        this.loadedDictionary = new long[names.length];
        try {
            pending = scan.hasNext() ? scan.next() : null;
            for (int i = 0; i < names.length; i++) {
                DataType.Kind kind = scan.schema().field(i).type().kind();
                boolean strings = kind == DataType.Kind.UTF8 || kind == DataType.Kind.BINARY;
                int column = i;
                dictionary[i] = strings && pending != null
                        && NativeAccess.withHandle(pending, c -> ArrowNative.isDictionary(c, column));
            }
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /**
     * A reader over {@code columns} (empty: all) of {@code file}, keeping the rows that satisfy
     * {@code filter} (null: all). The file must stay open while the reader is used.
     */
    public static VortexArrowReader open(VortexFile file, List<String> columns, Predicate filter, BufferAllocator allocator) {
        return new VortexArrowReader(file, columns, filter, allocator);
    }

    @Override
    protected Schema readSchema() {
        Schema plain;
        try (ArrowSchema c = ArrowSchema.allocateNew(allocator)) {
            NativeAccess.withHandle(file, f -> {
                ArrowNative.exportSchema(f, names, c.memoryAddress());
                return null;
            });
            plain = Data.importSchema(allocator, c, null);
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            Field f = plain.getFields().get(i);
            if (dictionary[i]) {
                // The message form: the value type, with the encoding; initialize() makes the
                // Int32 index vector and the empty dictionary vector.
                DictionaryEncoding encoding = new DictionaryEncoding(i, false, INDEX_TYPE);
                f = new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), encoding), f.getChildren());
            }
            fields.add(f);
        }
        return new Schema(fields);
    }

    @Override
    public boolean loadNextBatch() {
        try {
            prepareLoadNextBatch();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        while (true) {
            Chunk chunk = pending != null ? pending : scan.hasNext() ? scan.next() : null;
            pending = null;
            if (chunk == null) {
                return false;
            }
            try (chunk) {
                long[] selection = null;
                int rows = chunk.length();
                if (filter != null) {
                    io.vortex4j.reader.array.Bitmap selected = Compute.selection(chunk, filter);
                    rows = selected.cardinality();
                    if (rows == 0) {
                        continue;
                    }
                    selection = rows == chunk.length() ? null : selected.words();
                }
                load(chunk, selection, rows);
                return true;
            }
        }
    }

    private void load(Chunk chunk, long[] selection, int rows) {
        VectorSchemaRoot root;
        try {
            root = getVectorSchemaRoot();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (int i = 0; i < names.length; i++) {
            FieldVector vector = root.getVector(i);
            int column = i;
            try (ArrowArray array = ArrowArray.allocateNew(allocator)) {
                if (dictionary[i]) {
                    try (ArrowArray values = ArrowArray.allocateNew(allocator)) {
                        long id = NativeAccess.withHandle(chunk, c -> ArrowNative.exportCodes(c, column, selection,
                                loadedDictionary[column], array.memoryAddress(), values.memoryAddress()));
                        if (id != loadedDictionary[i]) {
                            Dictionary d = lookup(i);
                            Data.importIntoVector(allocator, values, d.getVector(), null);
                            loadedDictionary[i] = id;
                        }
                    }
                } else {
                    NativeAccess.withHandle(chunk, c -> {
                        ArrowNative.exportColumn(c, column, selection, array.memoryAddress());
                        return null;
                    });
                }
                Data.importIntoVector(allocator, array, vector, null);
            }
            bytesRead += vector.getBufferSize();
        }
        root.setRowCount(rows);
    }

    /** Bytes of Arrow buffers loaded so far. */
    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    protected void closeReadSource() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (pending != null) {
            pending.close();
            pending = null;
        }
        scan.close();
    }
}
