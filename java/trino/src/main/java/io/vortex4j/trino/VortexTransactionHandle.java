package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/** The connector keeps no transaction state: files are committed by rename. */
public enum VortexTransactionHandle implements ConnectorTransactionHandle {
    INSTANCE
}
