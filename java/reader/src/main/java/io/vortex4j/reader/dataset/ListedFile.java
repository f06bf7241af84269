package io.vortex4j.reader.dataset;

import java.util.List;

/**
 * A file found by {@link Listing}: its absolute path, size and modification time at listing
 * time, and the raw {@code key=value} partition pairs of the folders between the dataset's root
 * and the file (decoded, the value null for {@code __HIVE_DEFAULT_PARTITION__}). Not public API.
 */
public record ListedFile(String path, long size, long modifiedMillis, List<String[]> partitions) {}
