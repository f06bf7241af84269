package io.vortex4j.spark;

import io.vortex4j.reader.Split;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The input partitions of a scan, and when an aggregate's partials are already complete.
 *
 * <p>Rows and {@link AggregatePlan#countsOnly() counts} are read per split. Other aggregates run
 * per file (the reader's {@code GroupAggregate} takes a whole file, not a row range), so a file
 * cut into several splits is one partition for them.
 */
final class InputPartitions {
    private InputPartitions() {}

    /** One partition per split. */
    static List<SplitPartition> ofSplits(List<Split> splits) {
        List<SplitPartition> out = new ArrayList<>();
        for (Split s : splits) {
            out.add(new SplitPartition(s, false));
        }
        return out;
    }

    /** The partitions {@code plan} is computed in: per split, or per file. */
    static List<SplitPartition> of(AggregatePlan plan, List<Split> splits) {
        if (plan.countsOnly()) {
            return ofSplits(splits);
        }
        Map<String, Split> first = new LinkedHashMap<>();
        for (Split s : splits) {
            first.putIfAbsent(s.path(), s);
        }
        List<SplitPartition> out = new ArrayList<>();
        for (Split s : first.values()) {
            out.add(new SplitPartition(s, true));
        }
        return out;
    }

    /**
     * Whether the partials of {@code plan} are the final answer: no group is split across two
     * partitions. True for one partition (one group per key from one reader), and when grouping
     * by a partition column whose every value belongs to one partition. Never for an ungrouped
     * aggregate over no partition (Spark must still produce its one row).
     */
    static boolean complete(AggregatePlan plan, List<Split> splits) {
        List<SplitPartition> partitions = of(plan, splits);
        if (partitions.size() == 1) {
            return true;
        }
        if (!plan.groupByPartition) {
            return false;
        }
        Map<Object, Integer> seen = new HashMap<>();
        for (SplitPartition p : partitions) {
            Object key = p.split().partitionValues().get(plan.groupBy);
            if (seen.merge(key == null ? NULL : key, 1, Integer::sum) > 1) {
                return false;
            }
        }
        return true;
    }

    private static final Object NULL = new Object();
}
