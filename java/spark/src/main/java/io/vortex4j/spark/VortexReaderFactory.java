package io.vortex4j.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Sent to the executors with the scan's plan: columns, the pushed Spark predicates (translated
 * again on the executor, against each file's schema) and limit, or the aggregate plan.
 */
final class VortexReaderFactory implements PartitionReaderFactory {
    private final StructType readSchema;
    private final Predicate[] filters;
    private final int limit;
    private final AggregatePlan aggregate;

    VortexReaderFactory(StructType readSchema, Predicate[] filters, int limit, AggregatePlan aggregate) {
        this.readSchema = readSchema;
        this.filters = filters;
        this.limit = limit;
        this.aggregate = aggregate;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return aggregate == null;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new BatchReader(((FilePartition) partition).file(), readSchema, filters, limit);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        if (aggregate == null) {
            throw new IllegalStateException("rows are read as columnar batches");
        }
        return new AggregateReader(((FilePartition) partition).file(), aggregate, filters);
    }
}
