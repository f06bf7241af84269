package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import io.vortex4j.reader.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

/**
 * Creates the {@code vortex} connector of a catalog. Catalog properties: {@code
 * vortex.directory} (required), the local folder or object store location ({@code
 * s3://bucket/prefix}, {@code gs://}, {@code az://}, …) whose files and folders are the tables of
 * schema {@code default}; and for a store location, the reader's store properties ({@code
 * s3.endpoint}, {@code s3.region}, {@code gs.*}, {@code az.*}, …; see {@link Stores}), which
 * apply to the location's bucket over what the environment gives.
 */
public final class VortexConnectorFactory implements ConnectorFactory {
    /** The catalog property naming the folder or store location. */
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
        Map<String, String> store = storeProperties(rest);
        if (!rest.isEmpty()) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + ": unknown properties " + new TreeMap<>(rest).keySet());
        }
        if (Stores.isRemote(dir)) {
            configure(catalogName, dir, store);
            return new VortexConnector(Catalog.at(dir));
        }
        if (!store.isEmpty()) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + ": store properties " + store.keySet()
                    + " need an object store location in " + DIRECTORY + ", not the local folder " + dir);
        }
        Path directory = Paths.get(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(directory)) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + ": " + DIRECTORY + " "
                    + directory + " is not a directory");
        }
        return new VortexConnector(new Catalog(directory));
    }

    /** Removes the store properties ({@code s3.*}, {@code gs.*}, {@code az.*}, {@code http.*}) from {@code config}, sorted by name. */
    private static Map<String, String> storeProperties(Map<String, String> config) {
        Map<String, String> store = new TreeMap<>();
        for (String key : Map.copyOf(config).keySet()) {
            if (key.startsWith("s3.") || key.startsWith("gs.") || key.startsWith("az.") || key.startsWith("http.")) {
                store.put(key, config.remove(key));
            }
        }
        return store;
    }

    /**
     * Sets {@code properties} for the bucket of {@code location} ({@code s3://bucket}): another
     * catalog over another bucket keeps its own. An unknown property fails naming it, never its value.
     */
    private static void configure(String catalogName, String location, Map<String, String> properties) {
        if (properties.isEmpty()) {
            return; // the environment alone, and whatever else configured this bucket
        }
        int authority = location.indexOf("://") + 3;
        int slash = location.indexOf('/', authority);
        String bucket = slash < 0 ? location : location.substring(0, slash);
        try {
            Stores.configure(bucket, properties);
        } catch (RuntimeException e) {
            throw new TrinoException(CONFIGURATION_INVALID, "catalog " + catalogName + " (" + location + "): " + e.getMessage());
        }
    }
}
