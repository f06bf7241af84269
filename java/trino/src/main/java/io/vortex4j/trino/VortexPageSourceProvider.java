package io.vortex4j.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.MemoryContext;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Opens a split's scan: the columns Trino reads plus those the pushed filter needs. */
final class VortexPageSourceProvider implements ConnectorPageSourceProvider {
    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session,
            ConnectorSplit split, ConnectorTableHandle table, Optional<ConnectorTableCredentials> credentials,
            List<ColumnHandle> columns, DynamicFilter dynamicFilter, MemoryContext memory) {
        VortexTableHandle handle = (VortexTableHandle) table;
        if (handle.aggregation().isPresent()) {
            return new AggregatePageSource(handle, columns);
        }
        VortexSplit vortexSplit = (VortexSplit) split;
        Split s = vortexSplit.toSplit();
        if (handle.topN().isPresent()) {
            List<VortexColumnHandle> outputs = new ArrayList<>();
            for (ColumnHandle c : columns) {
                outputs.add((VortexColumnHandle) c);
            }
            return new TopNPageSource(handle, s, outputs);
        }
        List<VortexColumnHandle> outputs = new ArrayList<>();
        Set<String> scanned = new LinkedHashSet<>();
        for (ColumnHandle c : columns) {
            VortexColumnHandle v = (VortexColumnHandle) c;
            outputs.add(v);
            if (!v.partition()) {
                scanned.add(v.name());
            }
        }
        Predicate filter = Filters.predicate(handle);
        if (filter != null) {
            for (String c : filter.columns()) {
                if (!s.partitionValues().containsKey(c)) {
                    scanned.add(c);
                }
            }
        }
        long limit = handle.limit().orElse(Long.MAX_VALUE);
        if (scanned.isEmpty() && filter != null) {
            scanned.add(handle.firstFileColumn());
        }
        return new VortexPageSource(s, outputs, scanned.isEmpty() ? null : new ArrayList<>(scanned), filter, limit);
    }
}
