package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;
import java.util.UUID;

/**
 * A transaction: what it listed is kept for it ({@link TransactionTables}); files are committed
 * by rename.
 */
public record VortexTransactionHandle(UUID id) implements ConnectorTransactionHandle {}
