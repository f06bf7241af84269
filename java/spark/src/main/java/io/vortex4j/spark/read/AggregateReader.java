package io.vortex4j.spark.read;

import io.vortex4j.reader.Scan;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;

/**
 * The aggregate partials of one file (an input partition), one row per group (group key first):
 * the count of selected rows of its splits ({@link AggregatePlan#countsOnly()}), or {@link
 * GroupAggregate} over the whole file (kept open across tasks by {@link OpenFiles}), less what
 * the file's footer answers exactly when no file column is filtered or grouped ({@link
 * FooterAggregates}).
 * Grouped by a partition column, the key is the split's value and a partition whose rows the
 * filter rules out entirely yields no row (ungrouped, there is always exactly one row).
 */
final class AggregateReader implements PartitionReader<InternalRow> {
    private final StructType schema;
    private final List<Object[]> rows = new ArrayList<>();
    private int next = -1;

    /**
     * {@code filter} is over the dataset's columns; {@code column} is a file column the scan can
     * read for a filter that leaves nothing to check but the split's partition values.
     */
    AggregateReader(SplitPartition partition, AggregatePlan plan, Predicate filter, String column) {
        this.schema = plan.schema();
        Split split = partition.splits().get(0); // one file: its splits share path and partition values
        String path = split.path();
        Object key = plan.groupByPartition ? split.partitionValues().get(plan.groupBy) : null;
        if (plan.countsOnly()) {
            long total = 0;
            for (Split s : partition.splits()) {
                total += Errors.naming(path, () -> count(s, filter, column));
            }
            long n = total;
            if (plan.groupBy == null || n > 0) {
                add(key, plan, g -> n);
            }
            return;
        }
        List<GroupAggregate.Aggregate> aggs = new ArrayList<>();
        for (AggregatePlan.Agg a : plan.aggregates) {
            aggs.add(new GroupAggregate.Aggregate(a.function(), a.column()));
        }
        if (plan.groupByPartition) {
            aggs.add(GroupAggregate.Aggregate.countStar()); // tells an empty partition from a group
        }
        String groupBy = plan.groupByPartition ? null : plan.groupBy;
        List<String> columns = new ArrayList<>();
        if (groupBy != null) {
            columns.add(groupBy);
        }
        for (AggregatePlan.Agg a : plan.aggregates) {
            if (a.column() != null && !columns.contains(a.column())) {
                columns.add(a.column());
            }
        }
        for (String c : filter == null ? List.<String>of() : fileColumns(filter, split, column)) {
            if (!columns.contains(c)) {
                columns.add(c);
            }
        }
        if (columns.isEmpty()) {
            columns.add(column);
        }
        List<Object[]> partials = Errors.naming(path, () -> aggregate(split, columns, filter, groupBy, aggs));
        int countStar = aggs.size() - 1;
        for (Object[] partial : partials) {
            if (plan.groupByPartition && (Long) partial[1 + countStar] == 0) {
                continue;
            }
            add(plan.groupByPartition ? key : partial[0], plan, a -> partial[1 + a]);
        }
    }

    /** The rows of the split the filter selects: its row count when no file column is filtered. */
    private static long count(Split split, Predicate filter, String column) {
        List<String> columns = filter == null ? List.of(column) : fileColumns(filter, split, column);
        try (OpenFiles.Lease lease = OpenFiles.SHARED.lease(split)) {
            return VortexDataset.countSplit(lease.file(), split, columns, filter);
        }
    }

    /**
     * The aggregates of the rows of the split's whole file the filter selects, one row per group:
     * its key, then the aggregates. Over all of the file's rows (no file column filtered, no group
     * column of the file) those its footer answers exactly come from there ({@link
     * FooterAggregates}); the rest are computed by {@link GroupAggregate}, reading only their
     * columns (nothing when the footer answers every one).
     */
    private static List<Object[]> aggregate(Split split, List<String> columns, Predicate filter, String groupBy,
            List<GroupAggregate.Aggregate> aggs) {
        try (OpenFiles.Lease lease = OpenFiles.SHARED.lease(split)) {
            Predicate residual = null;
            if (filter != null) {
                try (Scan scan = VortexDataset.scanSplit(lease.file(), split, columns, filter)) {
                    residual = scan.chunkFilter(); // the filter once the split's partition values decide their part
                }
            }
            Object[] footer = new Object[aggs.size()];
            java.util.Arrays.fill(footer, FooterAggregates.UNKNOWN);
            if (residual == null && groupBy == null) {
                footer = FooterAggregates.answers(lease.file(), aggs);
            }
            List<GroupAggregate.Aggregate> rest = new ArrayList<>();
            for (int a = 0; a < aggs.size(); a++) {
                if (footer[a] == FooterAggregates.UNKNOWN) {
                    rest.add(aggs.get(a));
                }
            }
            if (rest.isEmpty()) {
                Object[] row = new Object[1 + aggs.size()];
                System.arraycopy(footer, 0, row, 1, footer.length);
                return List.<Object[]>of(row);
            }
            GroupAggregate.Result result = GroupAggregate.run(lease.file(), groupBy, residual, rest);
            List<Object[]> out = new ArrayList<>(result.size());
            for (int g = 0; g < result.size(); g++) {
                Object[] row = new Object[1 + aggs.size()];
                row[0] = result.key(g);
                for (int a = 0, r = 0; a < aggs.size(); a++) {
                    row[1 + a] = footer[a] != FooterAggregates.UNKNOWN ? footer[a] : result.value(g, r++);
                }
                out.add(row);
            }
            return out;
        }
    }

    /** The filter's columns that are file columns (some column when there are none). */
    private static List<String> fileColumns(Predicate filter, Split split, String column) {
        List<String> out = new ArrayList<>();
        for (String c : filter.columns()) {
            if (!split.partitionValues().containsKey(c)) {
                out.add(c);
            }
        }
        if (out.isEmpty()) {
            out.add(column);
        }
        return out;
    }

    private void add(Object key, AggregatePlan plan, java.util.function.IntFunction<Object> value) {
        int width = schema.size();
        Object[] row = new Object[width];
        int k = 0;
        if (plan.groupBy != null) {
            row[k] = SparkValues.toInternal(key, schema.fields()[k].dataType());
            k++;
        }
        for (int a = 0; k < width; a++, k++) {
            row[k] = SparkValues.toInternal(value.apply(a), schema.fields()[k].dataType());
        }
        rows.add(row);
    }

    @Override
    public boolean next() {
        next++;
        return next < rows.size();
    }

    @Override
    public InternalRow get() {
        return new GenericInternalRow(rows.get(next));
    }

    @Override
    public void close() {}
}
