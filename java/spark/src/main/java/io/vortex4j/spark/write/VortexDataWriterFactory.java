package io.vortex4j.spark.write;

import io.vortex4j.reader.Stores;
import io.vortex4j.spark.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Sent to the executors: where and how each task writes its files (into a staging folder, or a
 * staging prefix of an object store with the store properties the executors apply).
 */
final class VortexDataWriterFactory implements DataWriterFactory {
    private final String staging;
    private final String queryId;
    private final StructType schema;
    private final List<String> partitionColumns;
    private final Map<String, String> stores;

    VortexDataWriterFactory(String staging, String queryId, StructType schema, List<String> partitionColumns,
            Map<String, String> stores) {
        this.staging = staging;
        this.queryId = queryId;
        this.schema = schema;
        this.partitionColumns = List.copyOf(partitionColumns);
        this.stores = Map.copyOf(stores);
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        String name = String.format("part-%05d-%d-%s.vortex", partitionId, taskId, queryId);
        if (!Stores.isRemote(staging)) {
            return files(Paths.get(staging), name);
        }
        StoreOptions.apply(stores);
        Path local;
        try {
            local = Files.createTempDirectory("vortex4j-spark-write-");
        } catch (IOException e) {
            throw new UncheckedIOException("creating a local folder for the task's files: " + e.getMessage(), e);
        }
        return new UploadingDataWriter(files(local, name), local, staging);
    }

    /** The task's file {@code name} (one per partition folder) written into {@code folder}. */
    private DataWriter<InternalRow> files(Path folder, String name) {
        if (partitionColumns.isEmpty()) {
            return new VortexDataWriter(folder.resolve(name), schema, VortexDataWriter.all(schema));
        }
        return new PartitionedDataWriter(folder, name, schema, partitionColumns);
    }
}
