package io.vortex4j.arrow;

import io.vortex4j.reader.internal.NativeHandle;
import java.nio.file.Path;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes Arrow batches ({@link VectorSchemaRoot}s) into a Vortex file with the reference
 * writer's default strategy: append with {@link #write}, then {@link #finish}. Batches cross
 * through Arrow's C Data Interface without a copy; the native writer holds their buffers until it
 * has encoded them (at the latest until {@link #finish} or {@link #close}), so the caller may
 * reuse or close its vectors right after {@code write}. Dictionary-encoded vectors (with their
 * {@link DictionaryProvider}) are written as the strings they encode.
 *
 * <p>Closing without {@code finish} abandons the file and deletes it.
 */
public final class VortexArrowWriter implements AutoCloseable {
    private final Path path;
    private final BufferAllocator allocator;
    private final DictionaryProvider provider;
    private final NativeHandle handle;
    private long rows;

    private VortexArrowWriter(Path path, BufferAllocator allocator, DictionaryProvider provider, long handle) {
        this.path = path;
        this.allocator = allocator;
        this.provider = provider;
        this.handle = new NativeHandle(handle, ArrowNative::freeWriter, "Arrow writer of " + path);
    }

    /**
     * Creates (or replaces) the file at {@code path} for batches of {@code schema}; {@code
     * provider} holds the dictionaries of dictionary-encoded fields (may be null without any).
     */
    public static VortexArrowWriter create(Path path, Schema schema, BufferAllocator allocator, DictionaryProvider provider) {
        Path absolute = path.toAbsolutePath();
        long h;
        try (ArrowSchema c = ArrowSchema.allocateNew(allocator)) {
            Data.exportSchema(allocator, schema, provider, c);
            h = ArrowNative.openWriter(absolute.toString(), c.memoryAddress());
        }
        return new VortexArrowWriter(absolute, allocator, provider, h);
    }

    /** Appends the rows of {@code root}, whose schema must be the writer's. */
    public void write(VectorSchemaRoot root) {
        long h = handle.acquire();
        try (ArrowArray array = ArrowArray.allocateNew(allocator);
             ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
            Data.exportVectorSchemaRoot(allocator, root, provider, array, schema);
            ArrowNative.writeBatch(h, array.memoryAddress(), schema.memoryAddress());
        } finally {
            handle.release();
        }
        rows += root.getRowCount();
    }

    /** Rows written so far. */
    public long rows() {
        return rows;
    }

    /** Completes the file and closes the writer; returns the file size in bytes. */
    public long finish() {
        return handle.finish(ArrowNative::finishWriter);
    }

    /** Abandons an unfinished file (deleting it); a no-op after {@link #finish}. Idempotent. */
    @Override
    public void close() {
        handle.close();
    }

    @Override
    public String toString() {
        return "VortexArrowWriter[" + path + ", " + rows + " rows]";
    }
}
