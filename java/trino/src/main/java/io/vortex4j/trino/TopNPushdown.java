package io.vortex4j.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.SortItem;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code applyTopN}: {@code ORDER BY … LIMIT n} over file columns whose order the reader's
 * {@code TopN} and Trino agree on (integers, decimals, dates, timestamps, booleans; floats, where
 * only the order of -0.0 and 0.0, equal to Trino, differs). Strings stay with Trino: the reader
 * orders them by UTF-16 code units, Trino by UTF-8 bytes, which differ above U+FFFF.
 */
final class TopNPushdown {
    /** Rows each split may be asked to keep, at most (a heap per split holds them). */
    static final long MAX_ROWS = 100_000;

    private TopNPushdown() {}

    static Optional<VortexTableHandle> apply(VortexTableHandle handle, long count, List<SortItem> items,
            Map<String, ColumnHandle> assignments) {
        if (count > MAX_ROWS || count <= 0 || items.isEmpty()) {
            return Optional.empty();
        }
        List<PushedTopN.Key> keys = new ArrayList<>();
        for (SortItem item : items) {
            if (!(assignments.get(item.getName()) instanceof VortexColumnHandle column) || column.partition()
                    || !ordered(column.type())) {
                return Optional.empty();
            }
            keys.add(new PushedTopN.Key(column, !item.getSortOrder().isAscending(), item.getSortOrder().isNullsFirst()));
        }
        return Optional.of(handle.withTopN(new PushedTopN(count, List.copyOf(keys))));
    }

    private static boolean ordered(Type type) {
        return type instanceof BigintType || type instanceof IntegerType || type instanceof SmallintType
                || type instanceof TinyintType || type instanceof DecimalType || type instanceof DateType
                || type instanceof TimestampType || type instanceof BooleanType || type instanceof DoubleType
                || type instanceof RealType;
    }
}
