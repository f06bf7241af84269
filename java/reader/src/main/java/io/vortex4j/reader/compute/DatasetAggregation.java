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
 * threads ran it.
 */
final class DatasetAggregation {
    private DatasetAggregation() {}

    static GroupAggregate.Result run(VortexDataset dataset, String groupBy,
            java.util.function.Function<Object, Object> groupKey, Predicate filter,
            List<GroupAggregate.Aggregate> aggregates, int threads) {
        Schema files = dataset.fileSchema();
        Set<String> columns = new LinkedHashSet<>();
        if (groupBy != null) {
            columns.add(fileColumn(dataset, groupBy));
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
                return GroupAggregate.aggregate(scan, scan.chunkFilter(), files, groupBy, groupKey, aggregates);
            }
        });
        GroupAggregate.Result empty = GroupAggregate.aggregate(List.of(), null, files, groupBy, groupKey, aggregates);
        return merge(empty, partials, aggregates);
    }

    private static String fileColumn(VortexDataset dataset, String name) {
        if (dataset.fileSchema().indexOf(name) >= 0) {
            return name;
        }
        if (dataset.schema().indexOf(name) >= 0) {
            throw new VortexException(dataset.location() + ": '" + name
                    + "' is a partition column; only file columns can be grouped or aggregated here");
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
                Object key = r.key(g);
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
        return new GroupAggregate.Result(keys, values);
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
