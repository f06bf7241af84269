package io.vortex4j.spark;

import io.vortex4j.reader.Schema;
import java.util.ArrayList;
import java.util.List;
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
 * What Spark pushes into a scan of a vortex table: the columns it needs, the filters the reader
 * applies exactly ({@link FilterTranslator}; Spark keeps the rest), a limit, and simple
 * aggregates ({@link AggregatePlan}), computed per file and merged by Spark.
 */
final class VortexScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns,
        SupportsPushDownV2Filters, SupportsPushDownLimit, SupportsPushDownAggregates {
    private final List<SourceFile> files;
    private final Schema fileSchema;
    private StructType readSchema;
    private Predicate[] pushed = new Predicate[0];
    private int limit = -1;
    private AggregatePlan aggregate;

    VortexScanBuilder(List<SourceFile> files, Schema fileSchema, StructType schema) {
        this.files = files;
        this.fileSchema = fileSchema;
        this.readSchema = schema;
    }

    @Override
    public void pruneColumns(StructType required) {
        readSchema = required;
    }

    /** Keeps the filters the reader applies exactly; returns the others for Spark to apply. */
    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        if (fileSchema == null) {
            return predicates;
        }
        FilterTranslator translator = new FilterTranslator(fileSchema);
        List<Predicate> taken = new ArrayList<>();
        List<Predicate> rest = new ArrayList<>();
        for (Predicate p : predicates) {
            (translator.translate(p) != null ? taken : rest).add(p);
        }
        pushed = taken.toArray(new Predicate[0]);
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
        if (fileSchema == null) {
            return false;
        }
        aggregate = AggregatePlan.of(aggregation, fileSchema, files.isEmpty() ? null : java.nio.file.Paths.get(files.get(0).path()));
        return aggregate != null;
    }

    /** Partials per file, merged by Spark (also AVG: Spark asks for SUM and COUNT instead). */
    @Override
    public boolean supportCompletePushDown(Aggregation aggregation) {
        return false;
    }

    @Override
    public Scan build() {
        return new VortexScan(files, aggregate != null ? aggregate.schema() : readSchema, pushed, limit, aggregate);
    }
}
