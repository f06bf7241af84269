package io.vortex4j.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;

/** Sent to the executors: where and how each task writes its file. */
final class VortexDataWriterFactory implements DataWriterFactory {
    private final String staging;
    private final String queryId;
    private final StructType schema;

    VortexDataWriterFactory(String staging, String queryId, StructType schema) {
        this.staging = staging;
        this.queryId = queryId;
        this.schema = schema;
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        String name = String.format("part-%05d-%d-%s.vortex", partitionId, taskId, queryId);
        return new VortexDataWriter(java.nio.file.Paths.get(staging, name), schema);
    }
}
