package io.vortex4j.reader.dataset;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One file of a {@link VortexDataset}: its absolute path, size and modification time as listed,
 * its row count (from its footer) and its partition values (see {@link Split#partitionValues}).
 */
public record DatasetFile(String path, long size, long modifiedMillis, long rowCount, Map<String, Object> partitionValues) {
    public DatasetFile {
        partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
    }
}
