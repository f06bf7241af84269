package io.vortex4j.spark.read;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.spark.Datasets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructType;

/**
 * A planned scan: one input partition per split of the dataset (planned once, with the pushed
 * filters: files pruned by partition values and zone maps), read as columnar batches or as the
 * split's aggregate partials ({@link InputPartitions}). Statistics come from the splits and the
 * kept files' footers ({@link ScanStatistics}).
 */
final class VortexScan implements Scan, Batch, SupportsReportStatistics {
    private final Datasets datasets;
    private final List<Split> splits;
    private final List<SplitPartition> partitions;
    private final StructType tableSchema;
    private final StructType readSchema;
    private final Filters filters;
    private final int limit;
    private final AggregatePlan aggregate;
    /** The object store properties the executors apply. */
    private final java.util.Map<String, String> stores;
    /** Computed on first use (reads the kept files' footers' statistics). */
    private Statistics statistics;

    VortexScan(Datasets datasets, List<Split> splits, List<SplitPartition> partitions, StructType tableSchema,
            StructType readSchema, Filters filters, int limit, AggregatePlan aggregate, java.util.Map<String, String> stores) {
        this.stores = stores;
        this.datasets = datasets;
        this.splits = splits;
        this.partitions = partitions;
        this.tableSchema = tableSchema;
        this.readSchema = readSchema;
        this.filters = filters;
        this.limit = limit;
        this.aggregate = aggregate;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    /** What was pushed and what planning kept, as {@code explain()} shows it. */
    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("VortexScan files=").append(files()).append(", splits=").append(splits.size())
                .append(", partitions=").append(partitions.size())
                .append(", footersRead=").append(datasets.openedFiles().size());
        sb.append(", PushedFilters: [").append(Arrays.stream(filters.predicates()).map(Object::toString)
                .collect(Collectors.joining(", "))).append(']');
        if (aggregate != null) {
            sb.append(", PushedAggregation: ").append(aggregate.aggregatesText());
            sb.append(", PushedGroupBy: ").append(aggregate.groupByText());
        }
        if (limit >= 0) {
            sb.append(", PushedLimit: ").append(limit);
        }
        return sb.toString();
    }

    /** The files the splits come from. */
    long files() {
        return splits.stream().map(Split::path).distinct().count();
    }

    Datasets datasets() {
        return datasets;
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return partitions.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new VortexReaderFactory(readSchema, filters, countColumn(), limit, aggregate, stores);
    }

    /** The first file column: scanned to count rows when Spark reads no file column. */
    private String countColumn() {
        for (var f : tableSchema.fields()) {
            if (datasets.partitionColumns().stream().noneMatch(p -> p.name().equals(f.name()))) {
                return f.name();
            }
        }
        throw new IllegalStateException("the table has no file column");
    }

    @Override
    public Statistics estimateStatistics() {
        if (statistics == null) {
            boolean reduced = aggregate != null || limit >= 0;
            Set<String> partitions = datasets.partitionColumns().stream().map(Field::name).collect(Collectors.toSet());
            statistics = ScanStatistics.of(splits, datasets.partitionColumns(), reduced,
                    reduced ? Map.of() : FileColumnStatistics.of(splits, tableSchema, partitions, filters.toReader()));
        }
        return statistics;
    }
}
