package io.vortex4j.spark;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;

/** A write into a folder: appended to its files, or replacing them ({@code mode("overwrite")}). */
final class VortexWriteBuilder implements WriteBuilder, SupportsTruncate {
    private final String folder;
    private final LogicalWriteInfo info;
    private boolean truncate;

    VortexWriteBuilder(String folder, LogicalWriteInfo info) {
        this.folder = folder;
        this.info = info;
    }

    @Override
    public WriteBuilder truncate() {
        truncate = true;
        return this;
    }

    @Override
    public Write build() {
        // Check every column maps before any task starts.
        for (org.apache.spark.sql.types.StructField f : info.schema().fields()) {
            SparkTypes.toVortex(f);
        }
        return new Write() {
            @Override
            public BatchWrite toBatch() {
                return new VortexBatchWrite(folder, info.queryId(), info.schema(), truncate);
            }
        };
    }
}
