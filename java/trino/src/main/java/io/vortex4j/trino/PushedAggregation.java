package io.vortex4j.trino;

import io.trino.spi.type.Type;
import java.util.List;
import java.util.Optional;

/**
 * An aggregation the reader answers ({@code GroupAggregate.runGrouped} over the dataset): the
 * group columns and the aggregates, in output order after the group columns.
 */
public record PushedAggregation(List<VortexColumnHandle> groupBy, List<Function> aggregates) {
    /** One aggregate: {@code count} (no column: COUNT(*)), {@code sum}, {@code min}, {@code max} or {@code avg}. */
    public record Function(String name, Optional<VortexColumnHandle> column, Type outputType) {}
}
