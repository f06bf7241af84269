package io.vortex4j.spark;

import io.vortex4j.reader.GroupAggregate;
import io.vortex4j.reader.VortexFile;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;

/** One file's aggregate partials, one row per group (group key first), from {@link GroupAggregate}. */
final class AggregateReader implements PartitionReader<InternalRow> {
    private final GroupAggregate.Result result;
    private final StructType schema;
    private final boolean grouped;
    private int next = -1;

    AggregateReader(SourceFile source, AggregatePlan plan, Predicate[] filters) {
        this.schema = plan.schema();
        this.grouped = plan.groupBy != null;
        List<GroupAggregate.Aggregate> aggs = new ArrayList<>();
        for (AggregatePlan.Agg a : plan.aggregates) {
            aggs.add(new GroupAggregate.Aggregate(a.function(), a.column()));
        }
        try (VortexFile file = Errors.naming(source, () -> VortexFile.open(Paths.get(source.path())))) {
            io.vortex4j.reader.Predicate filter = Filters.conjunction(file.schema(), filters, source);
            this.result = Errors.naming(source, () -> GroupAggregate.run(file, plan.groupBy, filter, aggs));
        }
    }

    @Override
    public boolean next() {
        next++;
        // Without GROUP BY the reader's single group is the whole file, empty or not.
        return next < result.size();
    }

    @Override
    public InternalRow get() {
        int width = schema.size();
        Object[] row = new Object[width];
        int k = 0;
        if (grouped) {
            row[k] = SparkValues.toInternal(result.key(next), schema.fields()[k].dataType());
            k++;
        }
        for (int a = 0; k < width; a++, k++) {
            row[k] = SparkValues.toInternal(result.value(next, a), schema.fields()[k].dataType());
        }
        return new GenericInternalRow(row);
    }

    @Override
    public void close() {}
}
