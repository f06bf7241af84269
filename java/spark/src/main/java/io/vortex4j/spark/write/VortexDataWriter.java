package io.vortex4j.spark.write;

import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import io.vortex4j.spark.SparkTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * One file of a task, written through the reader's {@link VortexWriter} (vortex's default
 * strategy: low-cardinality strings become dictionaries) in batches of {@value #BATCH_ROWS} rows.
 * A task with no rows writes no file. The file holds the fields {@code ordinals} of the rows
 * (all but the partition columns).
 */
final class VortexDataWriter implements DataWriter<InternalRow> {
    static final int BATCH_ROWS = 65_536;

    /** The commit message of a task: the files it wrote, relative to the staging folder. */
    record Committed(List<String> files) implements WriterCommitMessage {}

    private final Path path;
    private final Schema schema;
    private final RowColumns columns;
    private VortexWriter writer;

    VortexDataWriter(Path path, StructType sparkSchema, int[] ordinals) {
        this.path = path;
        StructType data = new StructType();
        for (int c : ordinals) {
            data = data.add(sparkSchema.fields()[c]);
        }
        this.schema = SparkTypes.toVortex(data);
        this.columns = new RowColumns(data, ordinals, BATCH_ROWS);
    }

    /** The ordinals {@code 0..n-1}: every field of the rows. */
    static int[] all(StructType schema) {
        return java.util.stream.IntStream.range(0, schema.size()).toArray();
    }

    @Override
    public void write(InternalRow row) {
        columns.add(row);
        if (columns.size() == BATCH_ROWS) {
            flush();
        }
    }

    private void flush() {
        if (columns.size() == 0) {
            return;
        }
        if (writer == null) {
            writer = VortexWriter.create(path, schema);
        }
        Batch batch = new Batch(schema, columns.size());
        columns.fill(batch);
        writer.write(batch);
        columns.clear();
    }

    /** Finishes the file; returns whether there is one (a task without rows writes none). */
    boolean finish() {
        flush();
        if (writer == null) {
            return false;
        }
        writer.finish();
        writer = null;
        return true;
    }

    @Override
    public WriterCommitMessage commit() {
        return new Committed(finish() ? List.of(path.getFileName().toString()) : List.of());
    }

    @Override
    public void abort() throws IOException {
        if (writer != null) {
            writer.close(); // abandons (deletes) the unfinished file
            writer = null;
        }
        Files.deleteIfExists(path);
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }
}
