package io.vortex4j.reader.write;

import io.vortex4j.reader.Schema;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.file.Path;

/**
 * Writes a Vortex file with the reference writer's default strategy (statistics, dictionary
 * encoding of low-cardinality strings, compression): append {@link Batch}es, then {@link
 * #finish()}.
 *
 * <pre>{@code
 * Schema schema = Schema.of(new Field("id", DataType.INT64, false), new Field("s", DataType.UTF8, true));
 * try (VortexWriter w = VortexWriter.create(path, schema)) {
 *     w.write(new Batch(schema, 2).set("id", new long[] {1, 2}).set("s", new String[] {"a", null}));
 *     w.finish();
 * }
 * }</pre>
 *
 * <p>Closing without {@link #finish()} abandons the file and deletes it, so a failed write never
 * leaves a file that looks complete.
 */
public final class VortexWriter implements AutoCloseable {
    private final Path path;
    private final Schema schema;
    private final NativeHandle handle;
    private boolean finished;
    private long rows;

    private VortexWriter(Path path, Schema schema, long handle) {
        this.path = path;
        this.schema = schema;
        this.handle = new NativeHandle(handle, Native::freeWriter, "writer of " + path);
    }

    /** Creates (or replaces) the file at {@code path}. */
    public static VortexWriter create(Path path, Schema schema) {
        Path absolute = path.toAbsolutePath();
        return new VortexWriter(absolute, schema, Native.openWriter(absolute.toString(), schema.toNative()));
    }

    /** The schema rows are written with. */
    public Schema schema() {
        return schema;
    }

    /** Rows written so far. */
    public long rows() {
        return rows;
    }

    /** Appends a batch; its schema must be this writer's. */
    public void write(Batch batch) {
        if (!batch.schema().equals(schema)) {
            throw new IllegalArgumentException("batch schema " + batch.schema() + " is not the writer's " + schema);
        }
        batch.checkComplete();
        long h = handle.acquire();
        try {
            Native.writeBatch(h, batch.rows(), batch.values, batch.offsets, batch.validity);
        } finally {
            handle.release();
        }
        rows += batch.rows();
    }

    /** Completes the file; returns its size in bytes. The writer is closed afterwards. */
    public long finish() {
        long size = handle.finish(Native::finishWriter);
        finished = true;
        return size;
    }

    /** Abandons an unfinished file (deleting it); a no-op after {@link #finish()}. */
    @Override
    public void close() {
        handle.close();
    }

    @Override
    public String toString() {
        return "VortexWriter[" + path + ", " + rows + " rows" + (finished ? ", finished" : "") + "]";
    }
}
