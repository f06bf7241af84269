package io.vortex4j.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;
import io.vortex4j.reader.dataset.Split;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The dataset's splits for the pushed filter: files whose partition values rule it out are never
 * opened, and chunk ranges zone maps rule out are skipped ({@code VortexDataset.splits}).
 */
final class VortexSplitManager implements ConnectorSplitManager {
    private final Function<ConnectorTransactionHandle, TransactionTables> transactions;

    /** Planning splits over the datasets {@code transactions} opened for each transaction. */
    VortexSplitManager(Function<ConnectorTransactionHandle, TransactionTables> transactions) {
        this.transactions = transactions;
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session,
            ConnectorTableHandle table, Set<ColumnHandle> dynamicFilterColumns, Constraint constraint) {
        VortexTableHandle handle = (VortexTableHandle) table;
        if (handle.aggregation().isPresent()) {
            return new FixedSplitSource(List.of(new AggregateSplit(handle.location())));
        }
        List<Split> splits = transactions.apply(transaction).with(handle.location(), d -> d.splits(Filters.predicate(handle)));
        List<ConnectorSplit> out = new ArrayList<>(splits.size());
        for (Split s : splits) {
            out.add(VortexSplit.of(s));
        }
        return new FixedSplitSource(out);
    }
}
