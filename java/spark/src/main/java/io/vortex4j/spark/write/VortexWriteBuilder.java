package io.vortex4j.spark.write;

import io.vortex4j.spark.SparkTypes;
import io.vortex4j.spark.StoreOptions;
import java.util.List;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;

/**
 * A write into a folder or an object store prefix: appended to its files, or replacing them
 * ({@code mode("overwrite")}); with {@code partitionBy} columns, into Hive {@code key=value/}
 * folders.
 */
public final class VortexWriteBuilder implements WriteBuilder, SupportsTruncate {
    private final String folder;
    private final LogicalWriteInfo info;
    private final List<String> partitionColumns;
    private boolean truncate;

    public VortexWriteBuilder(String folder, LogicalWriteInfo info, List<String> partitionColumns) {
        this.folder = folder;
        this.info = info;
        this.partitionColumns = partitionColumns;
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
                return new VortexBatchWrite(folder, info.queryId(), info.schema(), truncate, partitionColumns,
                        StoreOptions.of(info.options().asCaseSensitiveMap()));
            }
        };
    }
}
