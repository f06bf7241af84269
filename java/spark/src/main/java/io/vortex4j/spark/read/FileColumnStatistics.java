package io.vortex4j.spark.read;

import io.vortex4j.reader.ColumnStatistics;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.predicate.Predicate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The file columns' statistics of a scan: each kept file's footer statistics ({@link
 * io.vortex4j.reader.VortexFile#columnStatistics()}) merged over the files — null counts added,
 * the least min and the greatest max. Given only where they are exact for the scan's rows: the
 * scan reads its files whole (no file column is filtered, so no row or chunk is left out), and
 * every file holds the statistic (a file whose column is all null has no min/max and adds
 * none). Min and max only for the types Spark's own {@code ANALYZE} keeps them for: integers,
 * decimals, floating point, dates and booleans. Anything else is left to Spark's estimates.
 */
final class FileColumnStatistics {
    private FileColumnStatistics() {}

    /**
     * The statistics of the file columns of {@code schema} over the files of {@code splits};
     * empty when {@code filter} (over the dataset's columns, may be null) tests a file column, or
     * a file cannot be read (the scan itself then reports it).
     */
    static Map<NamedReference, org.apache.spark.sql.connector.read.colstats.ColumnStatistics> of(List<Split> splits,
            StructType schema, Set<String> partitionColumns, Predicate filter) {
        if (filter != null && filter.columns().stream().anyMatch(c -> !partitionColumns.contains(c))) {
            return Map.of();
        }
        Map<String, Long> coveredRows = new LinkedHashMap<>();
        Map<String, Split> firstSplit = new LinkedHashMap<>();
        for (Split s : splits) {
            coveredRows.merge(s.path(), s.rowCount(), Long::sum);
            firstSplit.putIfAbsent(s.path(), s);
        }
        Map<String, Merged> merged = new HashMap<>();
        try {
            for (Split s : firstSplit.values()) {
                if (coveredRows.get(s.path()) != s.fileRows()) {
                    return Map.of(); // part of the file is left out: its statistics are not the scan's
                }
                List<ColumnStatistics> stats;
                try (OpenFiles.Lease lease = OpenFiles.SHARED.lease(s)) {
                    stats = lease.file().columnStatistics();
                }
                for (ColumnStatistics c : stats) {
                    merged.computeIfAbsent(c.column(), k -> new Merged()).add(c, s.fileRows());
                }
            }
        } catch (RuntimeException e) {
            return Map.of(); // statistics are optional; reading the file reports the error
        }
        Map<NamedReference, org.apache.spark.sql.connector.read.colstats.ColumnStatistics> out = new HashMap<>();
        for (StructField f : schema.fields()) {
            Merged m = merged.get(f.name());
            if (m == null || partitionColumns.contains(f.name())) {
                continue;
            }
            boolean ordered = ordered(f.dataType());
            out.put(Expressions.column(f.name()), ScanStatistics.column(
                    m.nullsKnown ? OptionalLong.of(m.nulls) : OptionalLong.empty(), OptionalLong.empty(),
                    ordered && m.boundsKnown ? Optional.ofNullable(SparkValues.toInternal(m.min, f.dataType())) : Optional.empty(),
                    ordered && m.boundsKnown ? Optional.ofNullable(SparkValues.toInternal(m.max, f.dataType())) : Optional.empty()));
        }
        return out;
    }

    private static boolean ordered(DataType t) {
        return t instanceof IntegralType || t instanceof DecimalType || t instanceof DoubleType || t instanceof FloatType
                || t instanceof DateType || t instanceof BooleanType;
    }

    /** One column's statistics over the files added so far. */
    private static final class Merged {
        long nulls;
        boolean nullsKnown = true;
        boolean boundsKnown = true;
        Comparable<Object> min;
        Comparable<Object> max;

        @SuppressWarnings("unchecked")
        void add(ColumnStatistics c, long rows) {
            OptionalLong n = c.nullCount();
            nullsKnown &= n.isPresent();
            nulls += n.orElse(0);
            if (!(c.min().orElse(null) instanceof Comparable) || !(c.max().orElse(null) instanceof Comparable)) {
                // No bounds: fine only when the file holds no value of the column.
                boundsKnown &= n.isPresent() && n.getAsLong() == rows;
                return;
            }
            Comparable<Object> lo = (Comparable<Object>) c.min().get();
            Comparable<Object> hi = (Comparable<Object>) c.max().get();
            min = min == null || lo.compareTo(min) < 0 ? lo : min;
            max = max == null || hi.compareTo(max) > 0 ? hi : max;
        }
    }
}
