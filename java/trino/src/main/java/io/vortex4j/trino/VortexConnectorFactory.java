package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

/**
 * Creates the {@code vortex} connector of a catalog. Catalog properties: {@code
 * vortex.directory} (required), the folder whose files and sub-folders are the tables of schema
 * {@code default}.
 */
public final class VortexConnectorFactory implements ConnectorFactory {
    /** The catalog property naming the folder. */
    public static final String DIRECTORY = "vortex.directory";

    @Override
    public String getName() {
        return "vortex";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context) {
        Map<String, String> rest = new HashMap<>(config);
        String dir = rest.remove(DIRECTORY);
        if (dir == null || dir.isBlank()) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + ": " + DIRECTORY + " is required");
        }
        if (!rest.isEmpty()) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + ": unknown properties " + rest.keySet());
        }
        Path directory = Paths.get(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(directory)) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + ": " + DIRECTORY + " "
                    + directory + " is not a directory");
        }
        return new VortexConnector(new Catalog(directory));
    }
}
