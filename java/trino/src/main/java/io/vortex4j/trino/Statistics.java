package io.vortex4j.trino;

import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.SortedRangeSet;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Statistics for Trino's cost-based optimizer, from the splits of the handle's pushed filter
 * (planning already pruned files by partition values and chunk ranges by zone maps) and the
 * footers of their files: the rows of the kept ranges; per file column the null fraction and,
 * for numbers and dates, min and max (known only when every file's footer has them), and for a
 * dictionary-encoded string column its distinct values ({@link DistinctCounts}); per partition
 * column the exact null fraction, distinct count and (BIGINT, DATE) range.
 */
final class Statistics {
    private Statistics() {}

    /** The statistics of {@code table}, whose dataset is {@code dataset}. */
    static TableStatistics of(VortexTableHandle table, VortexDataset dataset) {
        List<Split> splits = dataset.splits(Filters.predicate(table));
        long rows = 0;
        Set<String> paths = new LinkedHashSet<>();
        for (Split s : splits) {
            rows += s.rowCount();
            paths.add(s.path());
        }
        TableStatistics.Builder out = TableStatistics.builder().setRowCount(Estimate.of(rows));
        if (rows == 0) {
            return out.build();
        }
        Map<String, Merged> files = fileColumns(paths);
        for (VortexColumnHandle c : Datasets.columns(dataset)) {
            if (c.partition()) {
                out.setColumnStatistics(c, partitionColumn(c.name(), splits, rows));
            } else {
                Merged m = files.get(c.name());
                if (m != null) {
                    OptionalLong distinct = c.type() instanceof VarcharType ? DistinctCounts.of(splits, c.name()) : OptionalLong.empty();
                    out.setColumnStatistics(c, m.statistics(rows, distinct));
                }
            }
        }
        return out.build();
    }

    /**
     * The most groups grouping {@code table} by {@code columns} forms, as its statistics bound
     * them: the product of each column's distinct count, or for a number or date its range
     * (max - min + 1), plus one for nulls, at most the rows; empty when a column is unbounded.
     */
    static OptionalDouble groups(VortexTableHandle table, VortexDataset dataset, List<VortexColumnHandle> columns) {
        TableStatistics stats = of(table, dataset);
        double rows = stats.getRowCount().getValue();
        double groups = 1;
        for (VortexColumnHandle c : columns) {
            ColumnStatistics cs = stats.getColumnStatistics().get(c);
            if (cs == null) {
                return OptionalDouble.empty();
            }
            double values = !cs.getDistinctValuesCount().isUnknown() ? cs.getDistinctValuesCount().getValue()
                    : cs.getRange().map(r -> narrowed(table, c, r)).map(r -> r.getMax() - r.getMin() + 1).orElse(Double.NaN);
            if (Double.isNaN(values)) {
                return OptionalDouble.empty();
            }
            groups *= values + 1;
        }
        return Double.isNaN(rows) ? OptionalDouble.of(groups) : OptionalDouble.of(Math.min(groups, rows));
    }

    /** {@code range} of column {@code c} within the span of the pushed filter's domain on it. */
    private static DoubleRange narrowed(VortexTableHandle table, VortexColumnHandle c, DoubleRange range) {
        Domain domain = table.constraint().getDomains().map(d -> d.get(c)).orElse(null);
        if (domain == null || domain.isNone() || domain.getValues().isAll() || !(domain.getValues() instanceof SortedRangeSet set)) {
            return range;
        }
        Range span = set.getSpan();
        double low = Math.max(range.getMin(), span.getLowValue().map(v -> number(v).orElse(range.getMin())).orElse(range.getMin()));
        double high = Math.min(range.getMax(), span.getHighValue().map(v -> number(v).orElse(range.getMax())).orElse(range.getMax()));
        return new DoubleRange(low, Math.max(low, high));
    }

    /** Per file column, its statistics over every file (a file without some is unknown). */
    private static Map<String, Merged> fileColumns(Set<String> paths) {
        Map<String, Merged> merged = new HashMap<>();
        boolean first = true;
        for (String path : paths) {
            try (VortexFile file = VortexFile.open(path)) {
                for (io.vortex4j.reader.ColumnStatistics cs : file.columnStatistics()) {
                    Merged m = merged.computeIfAbsent(cs.column(), k -> new Merged());
                    m.add(cs, first);
                }
            }
            first = false;
        }
        return merged;
    }

    private static ColumnStatistics partitionColumn(String name, List<Split> splits, long rows) {
        long nulls = 0;
        Set<Object> distinct = new HashSet<>();
        double min = Double.NaN;
        double max = Double.NaN;
        for (Split s : splits) {
            Object v = s.partitionValues().get(name);
            if (v == null) {
                nulls += s.rowCount();
                continue;
            }
            distinct.add(v);
            OptionalDouble d = number(v);
            if (d.isPresent()) {
                min = Double.isNaN(min) ? d.getAsDouble() : Math.min(min, d.getAsDouble());
                max = Double.isNaN(max) ? d.getAsDouble() : Math.max(max, d.getAsDouble());
            }
        }
        return new ColumnStatistics(Estimate.of((double) nulls / rows), Estimate.of(distinct.size()), Estimate.unknown(),
                Double.isNaN(min) ? Optional.empty() : Optional.of(new DoubleRange(min, max)));
    }

    /** A footer value as the number Trino's ranges hold, when it is one. */
    static OptionalDouble number(Object v) {
        if (v instanceof Number n && !(v instanceof BigDecimal)) {
            return OptionalDouble.of(n.doubleValue());
        }
        if (v instanceof BigDecimal b) {
            return OptionalDouble.of(b.doubleValue());
        }
        if (v instanceof LocalDate d) {
            return OptionalDouble.of(d.toEpochDay());
        }
        return OptionalDouble.empty();
    }

    /** One column's footer statistics merged over files. */
    private static final class Merged {
        long nulls;
        boolean nullsKnown;
        double min = Double.NaN;
        double max = Double.NaN;
        boolean rangeKnown;

        void add(io.vortex4j.reader.ColumnStatistics cs, boolean first) {
            if (first) {
                nullsKnown = true;
                rangeKnown = true;
            }
            nullsKnown &= cs.nullCount().isPresent();
            nulls += cs.nullCount().orElse(0);
            OptionalDouble lo = cs.min().map(Statistics::number).orElse(OptionalDouble.empty());
            OptionalDouble hi = cs.max().map(Statistics::number).orElse(OptionalDouble.empty());
            rangeKnown &= lo.isPresent() && hi.isPresent();
            if (rangeKnown) {
                min = Double.isNaN(min) ? lo.getAsDouble() : Math.min(min, lo.getAsDouble());
                max = Double.isNaN(max) ? hi.getAsDouble() : Math.max(max, hi.getAsDouble());
            }
        }

        ColumnStatistics statistics(long rows, OptionalLong distinct) {
            return new ColumnStatistics(nullsKnown ? Estimate.of(Math.min(1.0, (double) nulls / rows)) : Estimate.unknown(),
                    distinct.isPresent() ? Estimate.of(Math.min(distinct.getAsLong(), rows)) : Estimate.unknown(), Estimate.unknown(),
                    rangeKnown && !Double.isNaN(min) ? Optional.of(new DoubleRange(min, max)) : Optional.empty());
        }
    }
}
