package io.vortex4j.spark;

import io.vortex4j.reader.Stores;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * The object store properties of a read ({@link Stores}): the session's Hadoop S3A settings
 * ({@code fs.s3a.endpoint}, {@code fs.s3a.access.key}, …) that Spark users already have, then the
 * source's {@code s3.*}, {@code gs.*}, {@code az.*} and {@code http.*} options, which win. They
 * travel with the scan to the executors, which apply them before opening a file.
 */
public final class StoreOptions {
    private StoreOptions() {}

    private static final String[] HADOOP_KEYS = {
        "fs.s3a.endpoint", "fs.s3a.endpoint.region", "fs.s3a.access.key", "fs.s3a.secret.key",
        "fs.s3a.session.token", "fs.s3a.path.style.access", "fs.s3a.connection.ssl.enabled",
    };

    /** The last properties applied in this JVM (applying the same again is skipped). */
    private static Map<String, String> applied = Map.of();

    /** The store properties of {@code options} and of the active session's Hadoop configuration. */
    public static Map<String, String> of(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>(Stores.fromHadoop(hadoop()));
        options.forEach((k, v) -> {
            String key = k.toLowerCase(java.util.Locale.ROOT);
            if (key.startsWith("s3.") || key.startsWith("gs.") || key.startsWith("az.") || key.startsWith("http.")) {
                out.put(key, v);
            }
        });
        return out;
    }

    /** Applies {@code properties} to this JVM's stores (for every bucket of their schemes). */
    public static synchronized void apply(Map<String, String> properties) {
        if (!properties.isEmpty() && !properties.equals(applied)) {
            Stores.configureFrom(properties);
            applied = Map.copyOf(properties);
        }
    }

    private static Map<String, String> hadoop() {
        Map<String, String> out = new TreeMap<>();
        SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
        if (session == null) {
            return out;
        }
        org.apache.hadoop.conf.Configuration conf = session.sparkContext().hadoopConfiguration();
        for (String key : HADOOP_KEYS) {
            String v = conf.get(key);
            if (v != null) {
                out.put(key, v);
            }
        }
        return out;
    }
}
