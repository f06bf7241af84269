package io.vortex4j.spark.read;

import io.vortex4j.reader.ColumnStatistics;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.GroupAggregate;
import java.util.List;

/**
 * The aggregates of all of a file's rows (no filter on its columns, no group column of the file)
 * that its footer answers, no row read: {@code COUNT(*)} (the row count), {@code COUNT(c)} (rows
 * less the null count), {@code MIN(c)} / {@code MAX(c)} / {@code SUM(c)} (the footer's min / max /
 * sum, or null when every row is null). Only what {@link VortexFile#columnStatistics()} gives as
 * exact is used: never a string's truncated bound, the min/max/sum of a floating-point column
 * holding NaN, an overflowed sum, or a file written without statistics; those are left to {@link
 * GroupAggregate}. A floating-point SUM is the writer's (each zone's values in row order, then
 * the zones' sums in order): fixed by the file, whatever the tasks or threads reading it.
 */
final class FooterAggregates {
    /** What {@link #answers} holds for an aggregate the footer does not answer. */
    static final Object UNKNOWN = new Object();

    private FooterAggregates() {}

    /**
     * Per aggregate, its value over every row of {@code file} (null for SQL NULL), or {@link
     * #UNKNOWN}; values are typed as {@link GroupAggregate} gives them.
     */
    static Object[] answers(VortexFile file, List<GroupAggregate.Aggregate> aggregates) {
        Object[] out = new Object[aggregates.size()];
        List<ColumnStatistics> statistics = null;
        long rows = file.rowCount();
        for (int a = 0; a < out.length; a++) {
            GroupAggregate.Aggregate agg = aggregates.get(a);
            if (agg.function() == GroupAggregate.Function.COUNT_STAR) {
                out[a] = rows;
                continue;
            }
            if (statistics == null) {
                statistics = file.columnStatistics();
            }
            ColumnStatistics s = statistics.get(file.schema().indexOf(agg.column()));
            boolean allNull = s.nullCount().isPresent() && s.nullCount().getAsLong() == rows;
            out[a] = switch (agg.function()) {
                case COUNT -> s.nullCount().isPresent() ? (Object) (rows - s.nullCount().getAsLong()) : UNKNOWN;
                case MIN -> allNull ? null : s.min().orElse(UNKNOWN);
                case MAX -> allNull ? null : s.max().orElse(UNKNOWN);
                case SUM -> allNull ? null : s.sum().orElse(UNKNOWN);
                default -> UNKNOWN;
            };
        }
        return out;
    }
}
