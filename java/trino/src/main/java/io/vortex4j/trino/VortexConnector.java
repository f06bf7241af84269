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

/** The {@code vortex} connector of one catalog location (a folder or a store prefix). */
final class VortexConnector implements Connector {
    private final Catalog catalog;
    private final VortexSplitManager splits = new VortexSplitManager();
    private final VortexPageSourceProvider pages = new VortexPageSourceProvider();
    private final VortexPageSinkProvider sinks = new VortexPageSinkProvider();

    VortexConnector(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit) {
        return VortexTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction) {
        return new VortexMetadata(catalog);
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
        // nothing is kept open between queries
    }

    @Override
    public List<PropertyMetadata<?>> getSessionProperties() {
        return VortexSessionProperties.properties();
    }
}
