package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSink;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.VortexWriter;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static io.vortex4j.trino.Errors.VORTEX_WRITE_ERROR;

/**
 * One writer of a CREATE TABLE AS or INSERT: its rows go to one file staged in the table's
 * folder under a hidden name ({@link StagedFile}), which the commit names ({@link Staging}). A
 * writer given no rows writes no file.
 */
final class VortexPageSink implements ConnectorPageSink {
    private final VortexWriteHandle handle;
    private final Schema schema;
    private final StagedFile staged;
    private VortexWriter writer;
    private long bytes;

    VortexPageSink(VortexWriteHandle handle) {
        this.handle = handle;
        this.schema = Staging.schema(handle);
        this.staged = new StagedFile(handle.folder(), handle.writeId(), UUID.randomUUID().toString());
    }

    @Override
    public CompletableFuture<?> appendPage(Page page) {
        if (page.getPositionCount() == 0) {
            return NOT_BLOCKED;
        }
        try {
            if (writer == null) {
                writer = VortexWriter.create(staged.local(), schema);
            }
            writer.write(PageColumns.batch(schema, handle.types(), page));
            bytes += page.getSizeInBytes();
        } catch (TrinoException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TrinoException(VORTEX_WRITE_ERROR, staged.location() + ": " + e.getMessage(), e);
        }
        return NOT_BLOCKED;
    }

    @Override
    public long getCompletedBytes() {
        return bytes;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish() {
        if (writer == null) {
            return CompletableFuture.completedFuture(List.of());
        }
        try (VortexWriter w = writer) {
            w.finish();
        } catch (RuntimeException e) {
            abort();
            throw new TrinoException(VORTEX_WRITE_ERROR, staged.location() + ": " + e.getMessage(), e);
        }
        return CompletableFuture.completedFuture(List.of(Slices.utf8Slice(staged.finish())));
    }

    @Override
    public void abort() {
        try {
            if (writer != null) {
                writer.close();
            }
        } catch (RuntimeException e) {
            // the staged file keeps its hidden name: readers never list it
        }
        staged.abort();
    }
}
