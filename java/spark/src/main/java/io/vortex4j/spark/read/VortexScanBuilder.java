package io.vortex4j.spark.read;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.spark.Datasets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructType;

/**
 * What Spark pushes into a scan of a vortex dataset: the columns it needs, the filters the reader
 * applies exactly ({@link FilterTranslator}, partition columns included; Spark keeps the rest), a
 * limit, and simple aggregates ({@link AggregatePlan}). The splits are planned once, after the
 * filters are pushed: filters on partition columns prune files before any is opened.
 */
public final class VortexScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns,
        SupportsPushDownV2Filters, SupportsPushDownLimit, SupportsPushDownAggregates {
    private final Datasets datasets;
    private final StructType tableSchema;
    private final ScanOptions options;
    /** Tasks Spark runs at once: splits are grouped into at most this many partitions. */
    private final int parallelism = InputPartitions.parallelism();
    private StructType readSchema;
    private Predicate[] pushed = new Predicate[0];
    private io.vortex4j.reader.predicate.Predicate filter;
    private int limit = -1;
    private AggregatePlan aggregate;
    private List<Split> splits;

    public VortexScanBuilder(Datasets datasets, StructType schema, ScanOptions options) {
        this.datasets = datasets;
        this.tableSchema = schema;
        this.readSchema = schema;
        this.options = options;
    }

    @Override
    public void pruneColumns(StructType required) {
        readSchema = required;
    }

    /** Keeps the filters the reader applies exactly; returns the others for Spark to apply. */
    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        if (datasets.isEmpty()) {
            return predicates;
        }
        FilterTranslator translator = new FilterTranslator(datasets.schema());
        List<Predicate> taken = new ArrayList<>();
        List<Predicate> rest = new ArrayList<>();
        for (Predicate p : predicates) {
            (translator.translate(p) != null ? taken : rest).add(p);
        }
        pushed = taken.toArray(new Predicate[0]);
        filter = Filters.conjunction(datasets.schema(), pushed);
        return rest.toArray(new Predicate[0]);
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.clone();
    }

    @Override
    public boolean pushLimit(int limit) {
        this.limit = limit;
        return true;
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        aggregate = plan(aggregation);
        return aggregate != null;
    }

    /**
     * Complete push-down (Spark skips its final aggregate) only when no group can span two
     * partitions ({@link InputPartitions#complete}); otherwise partials, merged by Spark (also AVG:
     * Spark asks for SUM and COUNT instead).
     */
    @Override
    public boolean supportCompletePushDown(Aggregation aggregation) {
        AggregatePlan plan = plan(aggregation);
        return plan != null && InputPartitions.complete(plan, InputPartitions.of(splits(), plan, parallelism));
    }

    private AggregatePlan plan(Aggregation aggregation) {
        if (datasets.isEmpty()) {
            return null;
        }
        Set<String> partitions = datasets.partitionColumns().stream().map(Field::name).collect(Collectors.toSet());
        return AggregatePlan.of(aggregation, datasets.schema(), partitions, datasets.locations().get(0));
    }

    private List<Split> splits() {
        if (splits == null) {
            splits = datasets.isEmpty() ? List.of() : datasets.splits(filter, options.splitRows());
        }
        return splits;
    }

    @Override
    public Scan build() {
        return new VortexScan(datasets, splits(), InputPartitions.of(splits(), aggregate, parallelism), tableSchema,
                aggregate != null ? aggregate.schema() : readSchema, new Filters(pushed, tableSchema), limit, aggregate,
                options.stores());
    }
}
