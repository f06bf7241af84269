package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.type.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * A CREATE TABLE AS or INSERT in progress: the table's folder (a local path, or a store prefix
 * ending in {@code /}), the columns of the pages written (names as the files spell them, Trino
 * types), the query's write id, which names the files its writers stage until the commit names
 * them, and the channels of the Hive partition columns in folder order (an INSERT into a
 * partitioned table: each row goes to the {@code key=value/} folder of its values, the other
 * columns into its files).
 */
public record VortexWriteHandle(String folder, List<String> names, List<Type> types, String writeId, List<Integer> partitionChannels)
        implements ConnectorOutputTableHandle, ConnectorInsertTableHandle {
    /** The channels written into the files, in page order. */
    public List<Integer> fileChannels() {
        List<Integer> channels = new ArrayList<>();
        for (int c = 0; c < names.size(); c++) {
            if (!partitionChannels.contains(c)) {
                channels.add(c);
            }
        }
        return channels;
    }
}
