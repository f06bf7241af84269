package io.vortex4j.reader.dataset;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A unit of work of a {@link VortexDataset}: the rows {@code [firstRow, endRow)} of one file,
 * with the file's partition values and the size and modification time it had when the split was
 * planned. Immutable and {@link Serializable}: another JVM can scan it with {@link
 * VortexDataset#scanSplit} (the file is reopened by its absolute path). A file whose size or
 * modification time changed since is an error at scan time, never a wrong answer.
 *
 * <p>Splits of a dataset never overlap; their ranges start and end on the file's chunk
 * boundaries, so no chunk of a scan straddles two splits.
 */
public final class Split implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final long firstRow;
    private final long endRow;
    private final long fileRows;
    private final long fileSize;
    private final long modifiedMillis;
    private final LinkedHashMap<String, Object> partitionValues;

    Split(String path, long firstRow, long endRow, long fileRows, long fileSize, long modifiedMillis,
            Map<String, Object> partitionValues) {
        if (firstRow < 0 || endRow < firstRow || endRow > fileRows) {
            throw new IllegalArgumentException("bad split rows [" + firstRow + ", " + endRow + ") of " + fileRows);
        }
        this.path = Objects.requireNonNull(path, "path");
        this.firstRow = firstRow;
        this.endRow = endRow;
        this.fileRows = fileRows;
        this.fileSize = fileSize;
        this.modifiedMillis = modifiedMillis;
        this.partitionValues = new LinkedHashMap<>(partitionValues);
    }

    /** The file's absolute path. */
    public String path() {
        return path;
    }

    /** The file row number of the split's first row. */
    public long firstRow() {
        return firstRow;
    }

    /** One past the file row number of the split's last row. */
    public long endRow() {
        return endRow;
    }

    /** The rows of the split ({@code endRow - firstRow}), before any filter. */
    public long rowCount() {
        return endRow - firstRow;
    }

    /** Whether the split is the whole file. */
    public boolean isWholeFile() {
        return firstRow == 0 && endRow == fileRows;
    }

    /** Rows in the whole file. */
    public long fileRows() {
        return fileRows;
    }

    /** The file's size in bytes when the split was planned. */
    public long fileSize() {
        return fileSize;
    }

    /** The file's modification time (milliseconds since the epoch) when the split was planned. */
    public long modifiedMillis() {
        return modifiedMillis;
    }

    /**
     * The file's partition values by partition column, in the dataset's partition column order:
     * {@link Long}, {@link java.time.LocalDate} or {@link String}, null for {@code
     * __HIVE_DEFAULT_PARTITION__}. Every row of the split holds these values.
     */
    public Map<String, Object> partitionValues() {
        return Collections.unmodifiableMap(partitionValues);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Split s && path.equals(s.path) && firstRow == s.firstRow && endRow == s.endRow
                && fileRows == s.fileRows && fileSize == s.fileSize && modifiedMillis == s.modifiedMillis
                && partitionValues.equals(s.partitionValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, firstRow, endRow);
    }

    @Override
    public String toString() {
        return "Split[" + path + " rows " + firstRow + ".." + endRow
                + (partitionValues.isEmpty() ? "" : " " + partitionValues) + "]";
    }
}
