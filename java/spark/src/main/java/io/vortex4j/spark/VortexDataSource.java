package io.vortex4j.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code vortex} data source: {@code spark.read.format("vortex").load(pathOrFolderOrGlob)},
 * {@code df.write.format("vortex").mode("append"|"overwrite").save(folder)} and {@code CREATE
 * TABLE t USING vortex LOCATION '...'}. Registered through {@code
 * META-INF/services/org.apache.spark.sql.sources.DataSourceRegister}.
 */
public final class VortexDataSource implements TableProvider, DataSourceRegister {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Creates the source (Spark instantiates it by reflection). */
    public VortexDataSource() {}

    @Override
    public String shortName() {
        return "vortex";
    }

    /**
     * The dataset's columns at the options' locations: the first file's columns, then the
     * partition columns of its Hive {@code key=value/} folders.
     */
    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        StoreOptions.apply(StoreOptions.of(options.asCaseSensitiveMap()));
        return VortexTable.open(locations(options), null, null).schema();
    }

    /** The partition columns of the Hive folders, as identity transforms. */
    @Override
    public Transform[] inferPartitioning(CaseInsensitiveStringMap options) {
        StoreOptions.apply(StoreOptions.of(options.asCaseSensitiveMap()));
        return VortexTable.open(locations(options), null, null).partitioning();
    }

    /**
     * The table; {@code partitioning} is a write's {@code partitionBy} columns (or what {@link
     * #inferPartitioning} found), identity transforms of integer, date or string columns.
     */
    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        StoreOptions.apply(StoreOptions.of(properties));
        return VortexTable.open(locations(new CaseInsensitiveStringMap(properties)), schema, partitioning);
    }

    /** A write passes the query's schema to {@link #getTable}: there may be no files yet. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }

    /** The locations: the {@code path} option and the {@code paths} option (a JSON array). */
    static List<String> locations(CaseInsensitiveStringMap options) {
        List<String> out = new ArrayList<>();
        if (options.containsKey("paths")) {
            try {
                out.addAll(Arrays.asList(JSON.readValue(options.get("paths"), String[].class)));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("option paths is not a JSON array of strings: " + options.get("paths"), e);
            }
        }
        if (options.containsKey("path")) {
            out.add(options.get("path"));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("the vortex source needs a path: load(\"file-folder-or-glob\")");
        }
        return out;
    }
}
