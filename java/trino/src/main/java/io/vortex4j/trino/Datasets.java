package io.vortex4j.trino;

import io.trino.spi.connector.SchemaTableName;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.dataset.VortexDataset;
import io.trino.spi.type.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Opening a table's dataset, and its columns as Trino sees them. */
final class Datasets {
    private Datasets() {}

    /** Runs {@code work} on the dataset at {@code location}, closing it after; failures name the table's path. */
    static <T> T with(String location, Function<VortexDataset, T> work) {
        return Errors.reading(location, () -> {
            try (VortexDataset dataset = VortexDataset.open(location)) {
                return work.apply(dataset);
            }
        });
    }

    /**
     * The columns Trino can read, in the dataset's order (file columns, then partition columns).
     * A column whose type Trino has no counterpart for is not listed.
     */
    static List<VortexColumnHandle> columns(VortexDataset dataset) {
        Set<String> partitions = new HashSet<>();
        for (Field f : dataset.partitionColumns()) {
            partitions.add(f.name());
        }
        List<VortexColumnHandle> columns = new ArrayList<>();
        for (Field f : dataset.schema().fields()) {
            Optional<Type> type = TrinoTypes.toTrino(f.type());
            type.ifPresent(t -> columns.add(new VortexColumnHandle(f.name(), t, partitions.contains(f.name()))));
        }
        return columns;
    }

    /** The table's handle, with nothing pushed. */
    static VortexTableHandle handle(SchemaTableName name, VortexDataset dataset) {
        String first = dataset.fileSchema().size() == 0 ? null : dataset.fileSchema().field(0).name();
        return VortexTableHandle.of(name, dataset.location().toString(), first);
    }
}
