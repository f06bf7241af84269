package io.vortex4j.spark;

import io.vortex4j.reader.Batch;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One task's file, written through the reader's {@link VortexWriter} (vortex's default strategy:
 * low-cardinality strings become dictionaries) in batches of {@value #BATCH_ROWS} rows. A task
 * with no rows writes no file.
 */
final class VortexDataWriter implements DataWriter<InternalRow> {
    static final int BATCH_ROWS = 65_536;

    /** The commit message of a task: the file it wrote in the staging folder, or null for none. */
    record Committed(String fileName) implements WriterCommitMessage {}

    private final Path path;
    private final Schema schema;
    private final RowColumns columns;
    private VortexWriter writer;

    VortexDataWriter(Path path, StructType sparkSchema) {
        this.path = path;
        List<Field> fields = new ArrayList<>();
        for (StructField f : sparkSchema.fields()) {
            fields.add(SparkTypes.toVortex(f));
        }
        this.schema = new Schema(fields);
        this.columns = new RowColumns(sparkSchema, BATCH_ROWS);
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

    @Override
    public WriterCommitMessage commit() {
        flush();
        if (writer == null) {
            return new Committed(null);
        }
        writer.finish();
        writer = null;
        return new Committed(path.getFileName().toString());
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
