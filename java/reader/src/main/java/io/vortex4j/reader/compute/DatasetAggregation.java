package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.SplitExecutor;
import io.vortex4j.reader.predicate.Literals;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link GroupAggregate} over a {@link VortexDataset}: one partial aggregation per split, run by
 * the {@link SplitExecutor}, merged in split order so that the answer never depends on how many
 * threads ran it. Partials merge by key values (each file and chunk has its own dictionaries).
 * Partition group columns are constant per split: a split is grouped by its file group columns
 * only and its split's partition values complete the keys.
 */
final class DatasetAggregation {
    private DatasetAggregation() {}

    static GroupAggregate.Result run(VortexDataset dataset, List<String> groupBy,
            java.util.function.Function<Object, Object> groupKey, Predicate filter,
            List<GroupAggregate.Aggregate> aggregates, int threads) {
        Schema files = dataset.fileSchema();
        Set<String> columns = new LinkedHashSet<>();
        List<String> fileKeys = new ArrayList<>();
        boolean[] partition = new boolean[groupBy.size()];
        for (int k = 0; k < groupBy.size(); k++) {
            String name = groupBy.get(k);
            partition[k] = files.indexOf(name) < 0 && dataset.schema().indexOf(name) >= 0;
            if (!partition[k]) {
                fileKeys.add(fileColumn(dataset, name));
                columns.add(name);
            }
        }
        boolean byPartition = fileKeys.size() < groupBy.size();
        if (byPartition && groupKey != null) {
            throw new VortexException(dataset.location() + ": a group key function over a partition column");
        }
        // Grouped by partition values, a split's groups without rows are dropped: a hidden COUNT(*) finds them.
        List<GroupAggregate.Aggregate> computed = new ArrayList<>(aggregates);
        if (byPartition) {
            computed.add(GroupAggregate.Aggregate.countStar());
        }
        for (GroupAggregate.Aggregate a : aggregates) {
            if (a.column() != null) {
                columns.add(fileColumn(dataset, a.column()));
            }
        }
        if (filter != null) {
            for (String c : filter.columns()) {
                if (files.indexOf(c) >= 0) {
                    columns.add(c);
                }
            }
        }
        if (columns.isEmpty()) {
            columns.add(files.field(0).name()); // COUNT(*) alone: any column gives the chunk lengths
        }
        List<String> scanned = new ArrayList<>(columns);
        List<Split> splits = dataset.splits(filter);
        List<GroupAggregate.Result> partials = SplitExecutor.map(splits, threads, split -> {
            try (Scan scan = dataset.scan(split, scanned, filter)) {
                GroupAggregate.Result r = ChunkAggregation.aggregate(scan, scan.chunkFilter(), files, fileKeys, groupKey,
                        computed);
                return byPartition ? withPartitionKeys(r, split, groupBy, partition, aggregates.size()) : r;
            }
        });
        GroupAggregate.Result empty = byPartition
                ? new GroupAggregate.Result(List.of(), List.of(), groupBy.size())
                : ChunkAggregation.aggregate(List.of(), null, files, fileKeys, groupKey, aggregates);
        return merge(empty, partials, aggregates);
    }

    /**
     * The groups of a split's partial {@code r} (grouped by the file group columns, its last
     * aggregate a hidden COUNT(*)) keyed by every group column, the partition columns' values
     * being the split's; groups without rows are dropped, and so is the hidden count.
     */
    private static GroupAggregate.Result withPartitionKeys(GroupAggregate.Result r, Split split, List<String> groupBy,
            boolean[] partition, int aggregates) {
        List<Object> keys = new ArrayList<>();
        List<Object[]> values = new ArrayList<>();
        for (int g = 0; g < r.size(); g++) {
            if ((Long) r.value(g, aggregates) == 0) {
                continue;
            }
            Object[] key = new Object[groupBy.size()];
            for (int k = 0, f = 0; k < key.length; k++) {
                key[k] = partition[k] ? split.partitionValues().get(groupBy.get(k)) : r.key(g, f++);
            }
            keys.add(key.length == 1 ? key[0] : new KeyTuple(key));
            Object[] row = new Object[aggregates];
            for (int a = 0; a < aggregates; a++) {
                row[a] = r.value(g, a);
            }
            values.add(row);
        }
        return new GroupAggregate.Result(keys, values, groupBy.size());
    }

    private static String fileColumn(VortexDataset dataset, String name) {
        if (dataset.fileSchema().indexOf(name) >= 0) {
            return name;
        }
        if (dataset.schema().indexOf(name) >= 0) {
            throw new VortexException(dataset.location() + ": '" + name
                    + "' is a partition column; only file columns can be aggregated");
        }
        throw new VortexException(dataset.location() + ": unknown column '" + name + "'");
    }

    /** The partials merged in order into {@code first} (which holds no rows). */
    private static GroupAggregate.Result merge(GroupAggregate.Result first, List<GroupAggregate.Result> partials,
            List<GroupAggregate.Aggregate> aggregates) {
        List<Object> keys = new ArrayList<>();
        List<Object[]> values = new ArrayList<>();
        Map<Object, Integer> ids = new HashMap<>();
        List<GroupAggregate.Result> all = new ArrayList<>(partials.size() + 1);
        all.add(first);
        all.addAll(partials);
        for (GroupAggregate.Result r : all) {
            for (int g = 0; g < r.size(); g++) {
                Object key = r.groupKey(g);
                Object hashable = key instanceof byte[] b ? new Binary(b) : key;
                Integer id = ids.get(hashable);
                if (id == null) {
                    ids.put(hashable, keys.size());
                    keys.add(key);
                    Object[] row = new Object[aggregates.size()];
                    for (int a = 0; a < row.length; a++) {
                        row[a] = r.value(g, a);
                    }
                    values.add(row);
                    continue;
                }
                Object[] row = values.get(id);
                for (int a = 0; a < row.length; a++) {
                    row[a] = combine(aggregates.get(a), row[a], r.value(g, a));
                }
            }
        }
        return new GroupAggregate.Result(keys, values, first.width());
    }

    /** Two partial values of {@code agg} as one; null is "no value" (a SUM, MIN or MAX of nothing). */
    static Object combine(GroupAggregate.Aggregate agg, Object a, Object b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        switch (agg.function()) {
            case COUNT_STAR:
            case COUNT:
                return (Long) a + (Long) b;
            case SUM:
                if (a instanceof Long x) {
                    try {
                        return Math.addExact(x, (Long) b);
                    } catch (ArithmeticException e) {
                        throw new VortexException(agg + " overflows a 64-bit integer");
                    }
                }
                if (a instanceof BigDecimal x) {
                    return x.add((BigDecimal) b);
                }
                return (Double) a + (Double) b;
            default: {
                int c = a instanceof Double || a instanceof Float
                        ? Double.compare(((Number) b).doubleValue(), ((Number) a).doubleValue())
                        : Literals.compare(b, a instanceof byte[] bytes ? new Binary(bytes) : a);
                boolean max = agg.function() == GroupAggregate.Function.MAX;
                return (max ? c > 0 : c < 0) ? b : a;
            }
        }
    }
}
