package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSink;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.VortexWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static io.vortex4j.trino.Errors.VORTEX_WRITE_ERROR;

/**
 * One writer of a CREATE TABLE AS or INSERT: its rows go to one file staged in the table's
 * folder under a hidden name ({@link StagedFile}), which the commit names ({@link Staging}); into
 * a Hive-partitioned table, one file per partition folder its rows fall in
 * ({@link PartitionFolders}), holding the other columns. A writer given no rows writes no file.
 */
final class VortexPageSink implements ConnectorPageSink {
    private final VortexWriteHandle handle;
    private final Schema schema;
    private final int[] fileChannels;
    private final List<io.trino.spi.type.Type> fileTypes = new ArrayList<>();
    private final String writer = UUID.randomUUID().toString();
    /** Per partition folder ("" when the table has none), its file. */
    private final Map<String, Output> outputs = new LinkedHashMap<>();
    private long bytes;

    private record Output(StagedFile staged, VortexWriter writer) {}

    /** The positions of a page's rows that go to one folder. */
    private static final class Positions {
        int[] at = new int[16];
        int count;

        void add(int position) {
            if (count == at.length) {
                at = Arrays.copyOf(at, count * 2);
            }
            at[count++] = position;
        }
    }

    VortexPageSink(VortexWriteHandle handle) {
        this.handle = handle;
        this.schema = Staging.schema(handle);
        this.fileChannels = handle.fileChannels().stream().mapToInt(Integer::intValue).toArray();
        for (int c : fileChannels) {
            fileTypes.add(handle.types().get(c));
        }
    }

    @Override
    public CompletableFuture<?> appendPage(Page page) {
        if (page.getPositionCount() == 0) {
            return NOT_BLOCKED;
        }
        if (handle.partitionChannels().isEmpty()) {
            write("", page);
        } else {
            // Per folder, in order of first appearance, the positions of its rows.
            Map<String, Positions> rows = new LinkedHashMap<>();
            for (int r = 0; r < page.getPositionCount(); r++) {
                rows.computeIfAbsent(PartitionFolders.of(handle, page, r), f -> new Positions()).add(r);
            }
            rows.forEach((f, positions) -> write(f, page.getPositions(positions.at, 0, positions.count)));
        }
        bytes += page.getSizeInBytes();
        return NOT_BLOCKED;
    }

    /** Appends the file columns of {@code page} to the file of partition folder {@code folder}. */
    private void write(String folder, Page page) {
        Output out = outputs.get(folder);
        try {
            if (out == null) {
                StagedFile staged = new StagedFile(handle.folder(), folder, handle.writeId(), writer);
                out = new Output(staged, VortexWriter.create(staged.local(), schema));
                outputs.put(folder, out);
            }
            out.writer().write(PageColumns.batch(schema, fileTypes, page.getColumns(fileChannels)));
        } catch (TrinoException e) {
            throw e;
        } catch (RuntimeException e) {
            String where = out == null ? Staging.resolve(handle.folder(), folder) : out.staged().location();
            throw new TrinoException(VORTEX_WRITE_ERROR, where + ": " + e.getMessage(), e);
        }
    }

    @Override
    public long getCompletedBytes() {
        return bytes;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish() {
        List<Slice> fragments = new ArrayList<>();
        for (Output out : outputs.values()) {
            try (VortexWriter w = out.writer()) {
                w.finish();
            } catch (RuntimeException e) {
                abort();
                throw new TrinoException(VORTEX_WRITE_ERROR, out.staged().location() + ": " + e.getMessage(), e);
            }
            fragments.add(Slices.utf8Slice(out.staged().finish()));
        }
        return CompletableFuture.completedFuture(fragments);
    }

    @Override
    public void abort() {
        for (Output out : outputs.values()) {
            try {
                out.writer().close();
            } catch (RuntimeException e) {
                // the staged file keeps its hidden name: readers never list it
            }
            out.staged().abort();
        }
    }
}
