package io.vortex4j.spark.read;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Sent to the executors with the scan's plan: columns, the pushed Spark predicates (translated
 * again on the executor) and limit, or the aggregate plan. Each split of a {@link
 * SplitPartition} is read from its file, which must be unchanged since planning; the limit holds
 * per split (Spark applies it across them).
 */
final class VortexReaderFactory implements PartitionReaderFactory {
    private final StructType readSchema;
    private final Filters filters;
    private final String countColumn;
    private final int limit;
    private final AggregatePlan aggregate;
    /** The object store properties, applied on the executor before a file is opened. */
    private final java.util.TreeMap<String, String> stores;

    /** {@code countColumn}: a file column to scan when no other is needed (to count rows). */
    VortexReaderFactory(StructType readSchema, Filters filters, String countColumn, int limit, AggregatePlan aggregate,
            java.util.Map<String, String> stores) {
        this.stores = new java.util.TreeMap<>(stores);
        this.readSchema = readSchema;
        this.filters = filters;
        this.countColumn = countColumn;
        this.limit = limit;
        this.aggregate = aggregate;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return aggregate == null;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        io.vortex4j.spark.StoreOptions.apply(stores);
        SplitPartition p = (SplitPartition) partition;
        io.vortex4j.reader.predicate.Predicate filter = filters.toReader();
        return new SplitsReader(p.splits(), split -> new BatchReader(split, readSchema, filter, countColumn, limit));
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        if (aggregate == null) {
            throw new IllegalStateException("rows are read as columnar batches");
        }
        io.vortex4j.spark.StoreOptions.apply(stores);
        return new AggregateReader((SplitPartition) partition, aggregate, filters.toReader(), countColumn);
    }
}
