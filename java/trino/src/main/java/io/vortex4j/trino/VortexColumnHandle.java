package io.vortex4j.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

/**
 * A column of a Vortex table: {@code name} as the files spell it (Trino's name is its lower
 * case), its Trino type, and whether it is a Hive partition column (its value comes with the
 * split, not from the file).
 */
public record VortexColumnHandle(String name, Type type, boolean partition) implements ColumnHandle {
    /** The column as Trino lists it. */
    public ColumnMetadata metadata() {
        return ColumnMetadata.builder()
                .setName(name)
                .setType(type)
                .setExtraInfo(java.util.Optional.ofNullable(partition ? "partition key" : null))
                .build();
    }
}
