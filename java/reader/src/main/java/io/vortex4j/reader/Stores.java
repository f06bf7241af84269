package io.vortex4j.reader;

import io.vortex4j.reader.internal.Native;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Object stores: where files in S3, Google Cloud Storage, Azure and on web servers are read from,
 * and how. Every method that takes a file, folder or glob takes their locations too: {@code
 * s3://bucket/key} (also {@code s3a://}), {@code gs://bucket/key}, {@code az://container/key}
 * ({@code abfs://}, {@code abfss://}, {@code adl://}), {@code https://host/path}.
 *
 * <p><b>Credentials and settings</b> come from the environment first, as each cloud's own tools
 * read it ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_SESSION_TOKEN},
 * {@code AWS_REGION}, {@code AWS_ENDPOINT_URL} for an S3-compatible endpoint, {@code
 * AWS_ALLOW_HTTP=true} for a plain-http one, web identity and instance metadata; {@code
 * GOOGLE_SERVICE_ACCOUNT}, {@code AZURE_STORAGE_ACCOUNT_NAME}, …), then from properties given
 * here, for a scheme ({@code s3}) or one bucket ({@code s3://bucket}), which win:
 *
 * <table>
 *   <caption>Store properties</caption>
 *   <tr><th>property</th><th>meaning</th></tr>
 *   <tr><td>{@code s3.region}, {@code s3.endpoint}</td><td>the region; an S3-compatible endpoint URL</td></tr>
 *   <tr><td>{@code s3.access_key_id}, {@code s3.secret_access_key}, {@code s3.session_token}</td><td>static credentials</td></tr>
 *   <tr><td>{@code s3.path_style}</td><td>{@code true}: {@code endpoint/bucket/key} requests (most S3-compatible servers)</td></tr>
 *   <tr><td>{@code s3.allow_http}</td><td>{@code true}: allow a plain-http endpoint</td></tr>
 *   <tr><td>{@code gs.service_account_path}, {@code gs.service_account_key}</td><td>Google credentials</td></tr>
 *   <tr><td>{@code az.account_name}, {@code az.access_key}, {@code az.sas_key}, …</td><td>Azure credentials</td></tr>
 *   <tr><td>{@code <scheme>.max_retries}, {@code <scheme>.retry_timeout}</td><td>retries with exponential backoff on 5xx, throttling and connection errors (default 10 within 3 min)</td></tr>
 *   <tr><td>{@code <scheme>.coalesce_gap}, {@code <scheme>.coalesce_max}</td><td>segments read ahead share one request within this gap and size in bytes (default 1 MiB, 16 MiB; a max of 0: one request each)</td></tr>
 *   <tr><td>{@code <scheme>.timeout}, {@code <scheme>.connect_timeout}</td><td>per request (default 30 s; connecting 5 s)</td></tr>
 * </table>
 *
 * <p>Any other property of the {@code object_store} crate's S3, GCS and Azure builders is taken
 * by its name after the prefix ({@code s3.unsigned_payload}). Values are never shown in errors.
 */
public final class Stores {
    private Stores() {}

    /** The prefixes of store properties, by scheme family. */
    private static final List<String> FAMILIES = List.of("s3.", "gs.", "az.", "http.");

    /** Whether {@code location} names an object in a store rather than a local file. */
    public static boolean isRemote(String location) {
        int i = location.indexOf("://");
        if (i <= 0) {
            return false;
        }
        switch (location.substring(0, i).toLowerCase(Locale.ROOT)) {
            case "s3": case "s3a": case "gs": case "az": case "azure": case "abfs": case "abfss": case "adl":
            case "http": case "https":
                return true;
            default:
                return false;
        }
    }

    /** The local path {@code location} names: a path, or a {@code file://} URI's path. */
    public static java.nio.file.Path localPath(String location) {
        return java.nio.file.Paths.get(location.startsWith("file://") ? location.substring("file://".length()) : location);
    }

    /**
     * Sets the properties of {@code scope}: a scheme ({@code s3}, {@code gs}, {@code az},
     * {@code http}) or one bucket ({@code s3://bucket}), replacing those set before for it; they
     * apply to stores opened from then on. Throws {@link io.vortex4j.VortexException} naming an
     * unknown property.
     */
    public static void configure(String scope, Map<String, String> properties) {
        String[] keys = properties.keySet().toArray(new String[0]);
        String[] values = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = properties.get(keys[i]);
        }
        Native.configureStore(scope, keys, values);
    }

    /**
     * Configures each scheme whose properties {@code properties} holds ({@code s3.*}, {@code
     * gs.*}, {@code az.*}, {@code http.*}; others are ignored), for every bucket of the scheme.
     */
    public static void configureFrom(Map<String, String> properties) {
        Map<String, Map<String, String>> byFamily = new TreeMap<>();
        properties.forEach((k, v) -> {
            for (String family : FAMILIES) {
                if (k.startsWith(family) && v != null) {
                    byFamily.computeIfAbsent(family.substring(0, family.length() - 1), f -> new TreeMap<>()).put(k, v);
                }
            }
        });
        byFamily.forEach(Stores::configure);
    }

    /**
     * The store properties of Hadoop's S3A settings that Spark users already have ({@code
     * fs.s3a.endpoint}, {@code fs.s3a.endpoint.region}, {@code fs.s3a.access.key}, {@code
     * fs.s3a.secret.key}, {@code fs.s3a.session.token}, {@code fs.s3a.path.style.access}, {@code
     * fs.s3a.connection.ssl.enabled}), as {@code s3.*} properties.
     */
    public static Map<String, String> fromHadoop(Map<String, String> hadoop) {
        Map<String, String> out = new TreeMap<>();
        String[][] names = {
            {"fs.s3a.endpoint", "s3.endpoint"}, {"fs.s3a.endpoint.region", "s3.region"},
            {"fs.s3a.access.key", "s3.access_key_id"}, {"fs.s3a.secret.key", "s3.secret_access_key"},
            {"fs.s3a.session.token", "s3.session_token"}, {"fs.s3a.path.style.access", "s3.path_style"},
        };
        for (String[] n : names) {
            String v = hadoop.get(n[0]);
            if (v != null) {
                out.put(n[1], v);
            }
        }
        String endpoint = out.get("s3.endpoint");
        if ("false".equalsIgnoreCase(hadoop.get("fs.s3a.connection.ssl.enabled"))
                || (endpoint != null && endpoint.startsWith("http://"))) {
            out.put("s3.allow_http", "true");
        }
        return out;
    }

    /**
     * Writes the local file {@code local} to the object at {@code location}, replacing it:
     * atomically (one request, or a multipart upload completed only once every part landed).
     *
     * @return the bytes written
     */
    public static long upload(java.nio.file.Path local, String location) {
        return Native.uploadObject(local.toString(), location);
    }

    /**
     * Writes the object at {@code location} to the local file {@code local}, which appears only
     * once the whole object has arrived.
     *
     * @return the bytes written
     */
    public static long download(String location, java.nio.file.Path local) {
        return Native.downloadObject(location, local.toString());
    }

    /**
     * Copies the object at {@code from} to {@code to} in the same store, on the store's side:
     * {@code to} appears whole (replaced if it was there).
     */
    public static void copy(String from, String to) {
        Native.copyObject(from, to);
    }

    /** Deletes the object at {@code location}; one that is not there is no error. */
    public static void delete(String location) {
        Native.deleteObject(location);
    }

    /** What the stores have fetched since the process started (take differences around a query). */
    public static Fetched fetched() {
        long[] f = Native.storeFetched();
        return new Fetched(f[0], f[1], f[2], f[3], f[4]);
    }

    /**
     * {@link #fetched()} once no request is in flight, waiting at most {@code timeout}: a scan's
     * reads ahead may still be arriving after it closes, counted in the figures when they land.
     *
     * @throws java.util.concurrent.TimeoutException if requests are still running after {@code timeout}
     */
    public static Fetched settled(java.time.Duration timeout)
            throws InterruptedException, java.util.concurrent.TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Fetched now = fetched();
            if (now.inFlight() == 0) {
                return now;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new java.util.concurrent.TimeoutException(now.inFlight() + " store requests still in flight after " + timeout);
            }
            Thread.sleep(5);
        }
    }

    /**
     * Requests made to stores for objects (HEADs, GETs, writes), bytes they returned, segment reads
     * the segment cache answered instead of a request, and listings of prefixes (each however many
     * pages the store answered in); {@code inFlight} is the requests running at the time (not a
     * difference).
     */
    public record Fetched(long requests, long bytes, long cacheHits, long listings, long inFlight) {
        /** What was fetched since {@code before}; {@code inFlight} stays this one's. */
        public Fetched since(Fetched before) {
            return new Fetched(requests - before.requests, bytes - before.bytes, cacheHits - before.cacheHits,
                    listings - before.listings, inFlight);
        }

        @Override
        public String toString() {
            return requests + " requests, " + bytes + " bytes, " + cacheHits + " cache hits, " + listings + " listings";
        }
    }
}
