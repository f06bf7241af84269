package io.vortex4j.calcite;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pushed aggregation computed row by row in Java with integer sums in BigDecimal: the answer
 * when the reader's sums, exact in 64 bits, overflow while the SQL type of the sum (DECIMAL(38,
 * 0) for BIGINT, see {@link VortexTypeSystem}) holds the value. Rare (a BIGINT sum beyond
 * ±9.2·10^18), so simplicity wins over speed here. Values and results are in the reader's
 * representation, as {@link io.vortex4j.reader.compute.GroupAggregate} gives them: group keys first, then
 * one value per call (Long counts, BigDecimal integer and decimal sums, Double float sums, the
 * value itself for MIN and MAX).
 */
final class ExactAggregation {
    private ExactAggregation() {}

    static List<Object[]> run(VortexDataset dataset, List<VortexAggregateSpec.Group> keys, Predicate filter,
            List<VortexAggregateSpec.Call> calls) {
        Set<String> names = new LinkedHashSet<>();
        for (VortexAggregateSpec.Group k : keys) {
            if (!k.column().isPartition()) {
                names.add(k.column().name());
            }
        }
        for (VortexAggregateSpec.Call c : calls) {
            if (c.column() != null) {
                names.add(c.column().name());
            }
        }
        if (filter != null) {
            for (String c : filter.columns()) {
                if (dataset.fileSchema().indexOf(c) >= 0) {
                    names.add(c);
                }
            }
        }
        if (names.isEmpty()) {
            names.add(dataset.fileSchema().field(0).name());
        }
        List<String> scanned = new ArrayList<>(names);
        Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
        if (keys.isEmpty()) {
            groups.put(List.of(), new Object[calls.size()]);
        }
        for (Split split : dataset.splits(filter)) {
            try (Scan scan = dataset.scan(split, scanned, filter)) {
                aggregate(scan, split, keys, scanned, calls, groups);
            }
        }
        List<Object[]> out = new ArrayList<>();
        groups.forEach((key, values) -> {
            Object[] row = new Object[keys.size() + calls.size()];
            for (int k = 0; k < keys.size(); k++) {
                row[k] = key.get(k) instanceof ByteBuffer b ? b.array() : key.get(k);
            }
            System.arraycopy(values, 0, row, keys.size(), calls.size());
            out.add(row);
        });
        return out;
    }

    private static void aggregate(Scan scan, Split split, List<VortexAggregateSpec.Group> keys, List<String> scanned,
            List<VortexAggregateSpec.Call> calls, Map<List<Object>, Object[]> groups) {
        Predicate filter = scan.chunkFilter();
        for (Chunk chunk : scan) {
            try (chunk) {
                Bitmap selection = filter == null ? null : Compute.selection(chunk, filter);
                Array[] key = new Array[keys.size()];
                for (int k = 0; k < key.length; k++) {
                    VortexColumn c = keys.get(k).column();
                    key[k] = c.isPartition() ? null : chunk.column(scanned.indexOf(c.name()));
                }
                Array[] args = new Array[calls.size()];
                for (int a = 0; a < args.length; a++) {
                    VortexAggregateSpec.Call c = calls.get(a);
                    args[a] = c.column() == null ? null : chunk.column(scanned.indexOf(c.column().name()));
                }
                for (int i = 0; i < chunk.length(); i++) {
                    if (selection == null || selection.get(i)) {
                        add(groups, groupKey(split, keys, key, i), args, calls, i);
                    }
                }
            }
        }
    }

    /** The group of {@code row}: its values of the group columns (a partition column's is the split's). */
    private static List<Object> groupKey(Split split, List<VortexAggregateSpec.Group> keys, Array[] key, int row) {
        List<Object> k = new ArrayList<>(keys.size());
        for (int i = 0; i < key.length; i++) {
            VortexAggregateSpec.Group g = keys.get(i);
            Object v = key[i] == null ? split.partitionValues().get(g.column().name()) : Values.valueAt(key[i], row);
            k.add(hashable(g.key() == null ? v : g.key().apply(v)));
        }
        return k;
    }

    private static void add(Map<List<Object>, Object[]> groups, List<Object> key, Array[] args,
            List<VortexAggregateSpec.Call> calls, int row) {
        Object[] g = groups.computeIfAbsent(key, h -> new Object[calls.size()]);
        for (int a = 0; a < calls.size(); a++) {
            VortexAggregateSpec.Call c = calls.get(a);
            Object v = args[a] == null ? null : Values.valueAt(args[a], row);
            Object acc = g[a];
            switch (c.function()) {
                case COUNT_STAR:
                    g[a] = (acc == null ? 0L : (Long) acc) + 1;
                    break;
                case COUNT:
                    g[a] = (acc == null ? 0L : (Long) acc) + (v == null ? 0 : 1);
                    break;
                case SUM:
                case SUM0:
                    if (v instanceof Double || v instanceof Float) {
                        g[a] = (acc == null ? 0d : (Double) acc) + ((Number) v).doubleValue();
                    } else if (v != null) {
                        g[a] = (acc == null ? BigDecimal.ZERO : (BigDecimal) acc).add(decimal(v));
                    }
                    break;
                default: {
                    boolean min = c.function() == VortexAggregateSpec.Function.MIN;
                    if (v != null && (acc == null || (min ? compare(v, acc) < 0 : compare(v, acc) > 0))) {
                        g[a] = v;
                    }
                    break;
                }
            }
        }
    }

    /** Byte arrays as values with equality, for group keys. */
    private static Object hashable(Object k) {
        return k instanceof byte[] b ? ByteBuffer.wrap(b) : k;
    }

    private static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        return BigDecimal.valueOf(((Number) v).longValue());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.compareUnsigned(x, y);
        }
        return ((Comparable) a).compareTo(b);
    }
}
