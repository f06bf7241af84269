package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A table ({@code firstFileColumn}: a column scanned to count rows when a query reads none) and
 * what was pushed into its scan: {@code constraint} and {@code likes} are applied
 * exactly by the reader (Trino no longer checks them), {@code limit} caps the rows each split
 * returns (Trino still limits the total), {@code topN} makes each split return only its best rows
 * (Trino still sorts and limits them).
 */
public record VortexTableHandle(
        SchemaTableName name,
        String location,
        String firstFileColumn,
        TupleDomain<VortexColumnHandle> constraint,
        List<LikeFilter> likes,
        OptionalLong limit,
        Optional<PushedAggregation> aggregation,
        Optional<PushedTopN> topN) implements ConnectorTableHandle {

    /** The table with nothing pushed. */
    public static VortexTableHandle of(SchemaTableName name, String location, String firstFileColumn) {
        return new VortexTableHandle(name, location, firstFileColumn, TupleDomain.all(), List.of(), OptionalLong.empty(), Optional.empty(), Optional.empty());
    }

    VortexTableHandle withFilter(TupleDomain<VortexColumnHandle> newConstraint, List<LikeFilter> newLikes) {
        return new VortexTableHandle(name, location, firstFileColumn, newConstraint, newLikes, limit, aggregation, topN);
    }

    VortexTableHandle withLimit(long rows) {
        return new VortexTableHandle(name, location, firstFileColumn, constraint, likes, OptionalLong.of(rows), aggregation, topN);
    }

    VortexTableHandle withAggregation(PushedAggregation pushed) {
        return new VortexTableHandle(name, location, firstFileColumn, constraint, likes, limit, Optional.of(pushed), topN);
    }

    VortexTableHandle withTopN(PushedTopN pushed) {
        return new VortexTableHandle(name, location, firstFileColumn, constraint, likes, limit, aggregation, Optional.of(pushed));
    }

    /** What EXPLAIN shows: the table and what was pushed, the filter as the reader applies it. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name.toString());
        io.vortex4j.reader.predicate.Predicate filter = Filters.predicate(this);
        if (filter != null) {
            sb.append(" constraint=[").append(filter).append(']');
        }
        limit.ifPresent(n -> sb.append(" limit=").append(n));
        topN.ifPresent(t -> sb.append(" topN=[").append(t).append(']'));
        aggregation.ifPresent(a -> sb.append(" aggregation=[groupBy=").append(a.groupBy().stream().map(VortexColumnHandle::name).toList())
                .append(", ").append(a.aggregates().stream().map(f -> f.name() + "(" + f.column().map(VortexColumnHandle::name).orElse("*") + ")").toList())
                .append(']'));
        return sb.toString();
    }
}
