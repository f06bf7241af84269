package io.vortex4j.spark.read;

import io.vortex4j.reader.dataset.VortexDataset;
import java.io.Serializable;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The read options of the {@code vortex} source: {@code splitRows}, the rows an input partition
 * aims at ({@link VortexDataset#DEFAULT_TARGET_ROWS} by default; a file of more rows is cut at
 * chunk boundaries into several partitions), and the object store properties ({@link
 * io.vortex4j.spark.StoreOptions}) the executors apply.
 */
public record ScanOptions(long splitRows, java.util.Map<String, String> stores) implements Serializable {
    public ScanOptions {
        stores = new java.util.TreeMap<>(stores);
    }

    public static ScanOptions of(CaseInsensitiveStringMap options) {
        String rows = options.get("splitRows");
        long splitRows = VortexDataset.DEFAULT_TARGET_ROWS;
        if (rows != null) {
            try {
                splitRows = Long.parseLong(rows.trim());
            } catch (NumberFormatException e) {
                splitRows = -1;
            }
            if (splitRows <= 0) {
                throw new IllegalArgumentException("option splitRows must be a positive number of rows, not '" + rows + "'");
            }
        }
        java.util.Map<String, String> stores = io.vortex4j.spark.StoreOptions.of(options.asCaseSensitiveMap());
        io.vortex4j.spark.StoreOptions.apply(stores);
        return new ScanOptions(splitRows, stores);
    }
}
