package io.vortex4j.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

/** Output column {@code index} of a {@link PushedAggregation}'s aggregates. */
public record AggregateColumnHandle(int index, Type type) implements ColumnHandle {
    /** The column as Trino lists it (in plans and query inputs). */
    public ColumnMetadata metadata() {
        return new ColumnMetadata(AggregationPushdown.outputName(index), type);
    }
}
