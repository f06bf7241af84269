package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.type.Type;
import java.util.List;

/**
 * A CREATE TABLE AS or INSERT in progress: the table's folder (a local path, or a store prefix
 * ending in {@code /}), the columns written (names as the files spell them, Trino types) and the
 * query's write id, which names the files its writers stage in the folder until the commit names
 * them.
 */
public record VortexWriteHandle(String folder, List<String> names, List<Type> types, String writeId)
        implements ConnectorOutputTableHandle, ConnectorInsertTableHandle {}
