package io.vortex4j.trino;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.transaction.IsolationLevel;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** The {@code vortex} connector of one catalog location (a folder or a store prefix). */
final class VortexConnector implements Connector {
    private final Catalog catalog;
    /** What each open transaction listed, by transaction (kept on the coordinator). */
    private final Map<ConnectorTransactionHandle, TransactionTables> transactions = new ConcurrentHashMap<>();
    private final VortexSplitManager splits = new VortexSplitManager(this::tables);
    private final VortexPageSourceProvider pages = new VortexPageSourceProvider();
    private final VortexPageSinkProvider sinks = new VortexPageSinkProvider();

    VortexConnector(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit) {
        VortexTransactionHandle handle = new VortexTransactionHandle(UUID.randomUUID());
        transactions.put(handle, new TransactionTables(catalog));
        return handle;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction) {
        return new VortexMetadata(catalog, tables(transaction));
    }

    @Override
    public void commit(ConnectorTransactionHandle transaction) {
        end(transaction);
    }

    @Override
    public void rollback(ConnectorTransactionHandle transaction) {
        end(transaction);
    }

    /** The catalog as {@code transaction}, begun here and not ended, sees it. */
    private TransactionTables tables(ConnectorTransactionHandle transaction) {
        TransactionTables tables = transactions.get(transaction);
        if (tables == null) {
            throw new IllegalStateException("no open transaction " + transaction + " in catalog " + catalog.location());
        }
        return tables;
    }

    private void end(ConnectorTransactionHandle transaction) {
        TransactionTables tables = transactions.remove(transaction);
        if (tables != null) {
            tables.close();
        }
    }

    @Override
    public ConnectorSplitManager getSplitManager() {
        return splits;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider() {
        return pages;
    }

    @Override
    public ConnectorPageSinkProvider getPageSinkProvider() {
        return sinks;
    }

    @Override
    public void shutdown() {
        transactions.values().forEach(TransactionTables::close);
        transactions.clear();
    }

    @Override
    public List<PropertyMetadata<?>> getSessionProperties() {
        return VortexSessionProperties.properties();
    }
}
