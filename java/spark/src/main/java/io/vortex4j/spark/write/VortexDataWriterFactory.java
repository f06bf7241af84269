package io.vortex4j.spark.write;

import java.nio.file.Paths;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;

/** Sent to the executors: where and how each task writes its files. */
final class VortexDataWriterFactory implements DataWriterFactory {
    private final String staging;
    private final String queryId;
    private final StructType schema;
    private final List<String> partitionColumns;

    VortexDataWriterFactory(String staging, String queryId, StructType schema, List<String> partitionColumns) {
        this.staging = staging;
        this.queryId = queryId;
        this.schema = schema;
        this.partitionColumns = List.copyOf(partitionColumns);
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        String name = String.format("part-%05d-%d-%s.vortex", partitionId, taskId, queryId);
        if (partitionColumns.isEmpty()) {
            return new VortexDataWriter(Paths.get(staging, name), schema, VortexDataWriter.all(schema));
        }
        return new PartitionedDataWriter(Paths.get(staging), name, schema, partitionColumns);
    }
}
