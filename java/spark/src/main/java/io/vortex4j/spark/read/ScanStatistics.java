package io.vortex4j.spark.read;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.dataset.Split;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.colstats.ColumnStatistics;

/**
 * What a planned scan tells Spark's optimizer, from its splits (planning already pruned files by
 * partition values and chunk ranges by zone maps): the rows and bytes of the kept ranges (a
 * file's bytes in proportion to its kept rows), for each partition column its exact null count,
 * distinct count and (BIGINT, DATE) min and max, and for each file column the null count, min
 * and max its files' footers hold ({@link FileColumnStatistics}).
 */
final class ScanStatistics implements Statistics {
    private final long rows;
    private final long bytes;
    private final Map<NamedReference, ColumnStatistics> columns;

    private ScanStatistics(long rows, long bytes, Map<NamedReference, ColumnStatistics> columns) {
        this.rows = rows;
        this.bytes = bytes;
        this.columns = columns;
    }

    /**
     * The statistics of {@code splits}; {@code reduced}: the scan's output is not its rows
     * (aggregate, limit); {@code fileColumns}: the file columns' statistics, or an empty map.
     */
    static ScanStatistics of(List<Split> splits, List<Field> partitionColumns, boolean reduced,
            Map<NamedReference, ColumnStatistics> fileColumns) {
        long rows = 0;
        double bytes = 0;
        for (Split s : splits) {
            rows += s.rowCount();
            bytes += s.fileRows() == 0 ? s.fileSize() : (double) s.fileSize() * s.rowCount() / s.fileRows();
        }
        Map<NamedReference, ColumnStatistics> columns = new HashMap<>();
        if (!reduced) {
            for (Field p : partitionColumns) {
                columns.put(Expressions.column(p.name()), partitionColumn(p.name(), splits));
            }
            columns.putAll(fileColumns);
        }
        return new ScanStatistics(reduced ? -1 : rows, (long) Math.ceil(bytes), columns);
    }

    private static ColumnStatistics partitionColumn(String name, List<Split> splits) {
        long nulls = 0;
        Set<Object> distinct = new HashSet<>();
        Comparable<Object> min = null;
        Comparable<Object> max = null;
        for (Split s : splits) {
            Object v = s.partitionValues().get(name);
            if (v == null) {
                nulls += s.rowCount();
                continue;
            }
            distinct.add(v);
            if (v instanceof Long || v instanceof LocalDate) {
                @SuppressWarnings("unchecked")
                Comparable<Object> c = (Comparable<Object>) v;
                min = min == null || c.compareTo(min) < 0 ? c : min;
                max = max == null || c.compareTo(max) > 0 ? c : max;
            }
        }
        // Spark's optimizer takes min/max in its internal form: days for a DATE.
        return column(OptionalLong.of(nulls), OptionalLong.of(distinct.size()), Optional.ofNullable(min).map(ScanStatistics::internal),
                Optional.ofNullable(max).map(ScanStatistics::internal));
    }

    /** Column statistics of these values. */
    static ColumnStatistics column(OptionalLong nullCount, OptionalLong distinctCount, Optional<Object> min,
            Optional<Object> max) {
        return new ColumnStatistics() {
            @Override
            public OptionalLong nullCount() {
                return nullCount;
            }

            @Override
            public OptionalLong distinctCount() {
                return distinctCount;
            }

            @Override
            public Optional<Object> min() {
                return min;
            }

            @Override
            public Optional<Object> max() {
                return max;
            }
        };
    }

    private static Object internal(Object v) {
        return v instanceof LocalDate d ? Math.toIntExact(d.toEpochDay()) : v;
    }

    @Override
    public OptionalLong sizeInBytes() {
        return OptionalLong.of(bytes);
    }

    @Override
    public OptionalLong numRows() {
        return rows < 0 ? OptionalLong.empty() : OptionalLong.of(rows);
    }

    @Override
    public Map<NamedReference, ColumnStatistics> columnStats() {
        return columns;
    }
}
