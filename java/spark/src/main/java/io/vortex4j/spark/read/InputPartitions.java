package io.vortex4j.spark.read;

import io.vortex4j.reader.dataset.Split;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The input partitions of a scan, and when an aggregate's partials are already complete.
 *
 * <p>Rows are read per split, the splits grouped into at most as many partitions as Spark runs
 * tasks at once (its default parallelism): consecutive splits, balanced by rows. Each task costs
 * Spark a fixed overhead (scheduling, serialization, a result) that outweighs what more, smaller
 * tasks bring on few cores; a task reads its splits one after another with the file kept open
 * ({@link OpenFiles}). Aggregates run per file, one partition per file: a file's partial is one
 * row per group, complete when the dataset is one file, where partials per split would need
 * Spark's exchange and final aggregate (measured slower; see docs/spark.md).
 */
final class InputPartitions {
    private InputPartitions() {}

    /** The partitions of {@code splits} for {@code plan} (null: rows), over {@code parallelism} task slots. */
    static List<SplitPartition> of(List<Split> splits, AggregatePlan plan, int parallelism) {
        List<SplitPartition> out = new ArrayList<>();
        if (plan != null) {
            Map<String, List<Split>> files = new LinkedHashMap<>();
            for (Split s : splits) {
                files.computeIfAbsent(s.path(), k -> new ArrayList<>()).add(s);
            }
            files.values().forEach(f -> out.add(new SplitPartition(f)));
            return out;
        }
        long total = splits.stream().mapToLong(Split::rowCount).sum();
        int groups = Math.max(1, Math.min(parallelism, splits.size()));
        long target = (total + groups - 1) / groups;
        List<Split> current = new ArrayList<>();
        long rows = 0;
        for (int i = 0; i < splits.size(); i++) {
            current.add(splits.get(i));
            rows += splits.get(i).rowCount();
            int left = splits.size() - i - 1;
            int open = groups - out.size() - 1; // partitions still to fill after this one
            if (left > 0 && (rows >= target || left == open) && open > 0) {
                out.add(new SplitPartition(current));
                current = new ArrayList<>();
                rows = 0;
            }
        }
        if (!current.isEmpty()) {
            out.add(new SplitPartition(current));
        }
        return out;
    }

    /** The number of tasks Spark runs at once: the active session's default parallelism (1 without one). */
    static int parallelism() {
        return SparkSession.getActiveSession().map(s -> s.sparkContext().defaultParallelism()).getOrElse(() -> 1);
    }

    /**
     * Whether the partials of {@code plan} over {@code partitions} (one per file) are the final
     * answer: no group comes out in two rows. True for one partition (one row per group), and when
     * grouping by a partition column whose every value belongs to one file. Never for an
     * ungrouped aggregate over no partition (Spark must still produce its one row).
     */
    static boolean complete(AggregatePlan plan, List<SplitPartition> partitions) {
        if (partitions.size() == 1) {
            return true;
        }
        if (!plan.groupByPartition) {
            return false;
        }
        Map<Object, Integer> seen = new HashMap<>();
        for (SplitPartition p : partitions) {
            Object key = p.splits().get(0).partitionValues().get(plan.groupBy);
            if (seen.merge(key == null ? NULL : key, 1, Integer::sum) > 1) {
                return false;
            }
        }
        return true;
    }

    private static final Object NULL = new Object();
}
