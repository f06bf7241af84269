package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTransactionHandle;
import java.util.Optional;

/** A {@link VortexPageSink} per writer, for CREATE TABLE AS and INSERT alike. */
final class VortexPageSinkProvider implements ConnectorPageSinkProvider {
    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session,
            ConnectorOutputTableHandle table, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId id) {
        return new VortexPageSink((VortexWriteHandle) table);
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session,
            ConnectorInsertTableHandle table, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId id) {
        return new VortexPageSink((VortexWriteHandle) table);
    }
}
