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
 * returns (Trino still limits the total).
 */
public record VortexTableHandle(
        SchemaTableName name,
        String location,
        String firstFileColumn,
        TupleDomain<VortexColumnHandle> constraint,
        List<LikeFilter> likes,
        OptionalLong limit,
        Optional<PushedAggregation> aggregation) implements ConnectorTableHandle {

    /** The table with nothing pushed. */
    public static VortexTableHandle of(SchemaTableName name, String location, String firstFileColumn) {
        return new VortexTableHandle(name, location, firstFileColumn, TupleDomain.all(), List.of(), OptionalLong.empty(), Optional.empty());
    }

    VortexTableHandle withFilter(TupleDomain<VortexColumnHandle> newConstraint, List<LikeFilter> newLikes) {
        return new VortexTableHandle(name, location, firstFileColumn, newConstraint, newLikes, limit, aggregation);
    }

    VortexTableHandle withLimit(long rows) {
        return new VortexTableHandle(name, location, firstFileColumn, constraint, likes, OptionalLong.of(rows), aggregation);
    }

    VortexTableHandle withAggregation(PushedAggregation pushed) {
        return new VortexTableHandle(name, location, firstFileColumn, constraint, likes, limit, Optional.of(pushed));
    }
}
