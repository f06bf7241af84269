package io.vortex4j.spark.read;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.spark.SparkTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A pushed aggregation: {@code COUNT(*)}, {@code COUNT(c)}, {@code SUM(c)}, {@code MIN(c)},
 * {@code MAX(c)} (AVG reaches the scan as SUM and COUNT) grouped by at most one column, a file
 * column or a partition column, computed per file. {@code COUNT(*)} alone (ungrouped or by a
 * partition column) is the sum of the file's splits' row counts or filter selections; anything
 * else is {@link GroupAggregate} over the file (dictionary columns grouped by code, counts and
 * integer aggregates in the native kernel), or the file's footer over all its rows ({@link
 * FooterAggregates}). Spark merges the partials, unless {@link
 * VortexScanBuilder#supportCompletePushDown} found that no group spans two partitions.
 *
 * <p>Declined (Spark aggregates the rows itself): DISTINCT, expressions other than a column,
 * several group columns, aggregates of partition columns, grouping by or taking MIN/MAX of a
 * floating-point column (Spark groups -0.0 with 0.0 and NaN with NaN; the reader's total order
 * tells them apart), and column types the reader cannot aggregate. SUM of a floating-point column
 * is taken: like Spark's own, its last bits depend on the order rows are added in.
 */
final class AggregatePlan implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One aggregate as the reader runs it. */
    record Agg(GroupAggregate.Function function, String column) implements Serializable {}

    /** The group column, or null. */
    final String groupBy;
    /** Whether {@link #groupBy} is a partition column (constant within a split). */
    final boolean groupByPartition;
    final List<Agg> aggregates;
    private final StructType schema;

    private AggregatePlan(String groupBy, boolean groupByPartition, List<Agg> aggregates, StructType schema) {
        this.groupBy = groupBy;
        this.groupByPartition = groupByPartition;
        this.aggregates = aggregates;
        this.schema = schema;
    }

    /**
     * The plan of {@code aggregation} over a dataset of columns {@code schema} (file columns, then
     * the {@code partitions} columns), or null when it is declined. {@code where} names the
     * dataset in errors.
     */
    static AggregatePlan of(Aggregation aggregation, Schema schema, Set<String> partitions, String where) {
        List<StructField> out = new ArrayList<>();
        Expression[] groups = aggregation.groupByExpressions();
        if (groups.length > 1) {
            return null;
        }
        String groupBy = null;
        if (groups.length == 1) {
            Field g = column(groups[0], schema);
            if (g == null || !groupable(g.type().kind())) {
                return null;
            }
            groupBy = g.name();
            out.add(DataTypes.createStructField(g.name(), SparkTypes.toSpark(g, where), true));
        }
        Schema fileSchema = new Schema(schema.fields().stream().filter(f -> !partitions.contains(f.name())).toList());
        List<Agg> aggs = new ArrayList<>();
        for (AggregateFunc f : aggregation.aggregateExpressions()) {
            Agg a;
            Field c;
            org.apache.spark.sql.types.DataType type;
            if (f instanceof CountStar) {
                a = new Agg(GroupAggregate.Function.COUNT_STAR, null);
                type = DataTypes.LongType;
            } else if (f instanceof Count cnt && !cnt.isDistinct() && (c = column(cnt.column(), fileSchema)) != null
                    && c.type().isSupported()) {
                a = new Agg(GroupAggregate.Function.COUNT, c.name());
                type = DataTypes.LongType;
            } else if (f instanceof Sum s && !s.isDistinct() && (c = column(s.column(), fileSchema)) != null
                    && (type = sumType(c, where)) != null) {
                a = new Agg(GroupAggregate.Function.SUM, c.name());
            } else if ((f instanceof Min || f instanceof Max) && (c = column(f instanceof Min m ? m.column() : ((Max) f).column(),
                    fileSchema)) != null && orderable(c.type().kind())) {
                a = new Agg(f instanceof Min ? GroupAggregate.Function.MIN : GroupAggregate.Function.MAX, c.name());
                type = SparkTypes.toSpark(c, where);
            } else {
                return null;
            }
            aggs.add(a);
            out.add(DataTypes.createStructField("agg" + aggs.size() + "_" + a.function(), type, true));
        }
        return new AggregatePlan(groupBy, groupBy != null && partitions.contains(groupBy), aggs,
                DataTypes.createStructType(out));
    }

    /**
     * Whether every aggregate is {@code COUNT(*)} and the group key (if any) a partition column:
     * then a file's partial is the sum of its splits' counts of selected rows (their row counts
     * when only partition columns are filtered: no data is read).
     */
    boolean countsOnly() {
        return (groupBy == null || groupByPartition)
                && aggregates.stream().allMatch(a -> a.function() == GroupAggregate.Function.COUNT_STAR);
    }

    /** The partial results' schema: the group column, then one column per aggregate. */
    StructType schema() {
        return schema;
    }

    String aggregatesText() {
        return "[" + aggregates.stream().map(a -> a.column() == null ? "COUNT(*)" : a.function() + "(" + a.column() + ")")
                .collect(Collectors.joining(", ")) + "]";
    }

    String groupByText() {
        return groupBy == null ? "[]" : "[" + groupBy + "]";
    }

    private static Field column(Expression e, Schema schema) {
        if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
            return null;
        }
        int i = schema.indexOf(r.fieldNames()[0]);
        return i < 0 ? null : schema.field(i);
    }

    private static boolean groupable(DataType.Kind k) {
        return k != DataType.Kind.FLOAT32 && k != DataType.Kind.FLOAT64 && k != DataType.Kind.FLOAT16
                && k != DataType.Kind.UNSUPPORTED && k != DataType.Kind.TIME && k != DataType.Kind.NULL
                && k != DataType.Kind.TIMESTAMP;
    }

    private static boolean orderable(DataType.Kind k) {
        return groupable(k) && k != DataType.Kind.BINARY;
    }

    /** Spark's result type of SUM over the column, or null when the reader does not sum it. */
    private static org.apache.spark.sql.types.DataType sumType(Field c, String file) {
        DataType.Kind k = c.type().kind();
        if (k.isInteger() && k != DataType.Kind.UINT64) {
            return DataTypes.LongType;
        }
        if (k == DataType.Kind.FLOAT32 || k == DataType.Kind.FLOAT64) {
            return DataTypes.DoubleType;
        }
        if (k == DataType.Kind.DECIMAL) {
            DecimalType d = (DecimalType) SparkTypes.toSpark(c, file);
            return DataTypes.createDecimalType(Math.min(38, d.precision() + 10), d.scale());
        }
        return null;
    }
}
