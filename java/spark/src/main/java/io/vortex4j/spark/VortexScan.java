package io.vortex4j.spark;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructType;

/**
 * A planned scan: one input partition per file, read as columnar batches, or one aggregate
 * partial per file when an aggregate was pushed. Statistics come from the footers.
 */
final class VortexScan implements Scan, Batch, SupportsReportStatistics {
    private final List<SourceFile> files;
    private final StructType readSchema;
    private final Predicate[] filters;
    private final int limit;
    private final AggregatePlan aggregate;

    VortexScan(List<SourceFile> files, StructType readSchema, Predicate[] filters, int limit, AggregatePlan aggregate) {
        this.files = files;
        this.readSchema = readSchema;
        this.filters = filters;
        this.limit = limit;
        this.aggregate = aggregate;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    /** What was pushed, as {@code explain()} shows it. */
    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("VortexScan files=").append(files.size());
        sb.append(", PushedFilters: [").append(Arrays.stream(filters).map(Object::toString)
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

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        InputPartition[] out = new InputPartition[files.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new FilePartition(files.get(i));
        }
        return out;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new VortexReaderFactory(readSchema, filters, limit, aggregate);
    }

    @Override
    public Statistics estimateStatistics() {
        long rows = 0;
        long bytes = 0;
        for (SourceFile f : files) {
            rows += f.rows();
            bytes += f.bytes();
        }
        long r = aggregate != null || limit >= 0 ? -1 : rows;
        long b = bytes;
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return OptionalLong.of(b);
            }

            @Override
            public OptionalLong numRows() {
                return r < 0 ? OptionalLong.empty() : OptionalLong.of(r);
            }
        };
    }
}
