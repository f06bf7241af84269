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
 * representation, as {@link io.vortex4j.reader.compute.GroupAggregate} gives them: group key first, then
 * one value per call (Long counts, BigDecimal integer and decimal sums, Double float sums, the
 * value itself for MIN and MAX).
 */
final class ExactAggregation {
    private ExactAggregation() {}

    static List<Object[]> run(VortexDataset dataset, VortexAggregateSpec.Group group, Predicate filter,
            List<VortexAggregateSpec.Call> calls) {
        Set<String> names = new LinkedHashSet<>();
        if (group != null) {
            names.add(group.column().name());
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
        Map<Object, Object[]> groups = new LinkedHashMap<>();
        if (group == null) {
            groups.put(null, newGroup(null, calls.size()));
        }
        for (Split split : dataset.splits(filter)) {
            try (Scan scan = dataset.scan(split, scanned, filter)) {
                aggregate(scan, group, scanned, calls, groups);
            }
        }
        return new ArrayList<>(groups.values());
    }

    private static void aggregate(Scan scan, VortexAggregateSpec.Group group, List<String> scanned,
            List<VortexAggregateSpec.Call> calls, Map<Object, Object[]> groups) {
        Predicate filter = scan.chunkFilter();
        for (Chunk chunk : scan) {
            try (chunk) {
                Bitmap selection = filter == null ? null : Compute.selection(chunk, filter);
                Array key = group == null ? null : chunk.column(scanned.indexOf(group.column().name()));
                Array[] args = new Array[calls.size()];
                for (int a = 0; a < args.length; a++) {
                    VortexAggregateSpec.Call c = calls.get(a);
                    args[a] = c.column() == null ? null : chunk.column(scanned.indexOf(c.column().name()));
                }
                for (int i = 0; i < chunk.length(); i++) {
                    if (selection == null || selection.get(i)) {
                        add(groups, group, key, args, calls, i);
                    }
                }
            }
        }
    }

    private static Object[] newGroup(Object key, int calls) {
        Object[] g = new Object[calls + 1];
        g[0] = key;
        return g;
    }

    private static void add(Map<Object, Object[]> groups, VortexAggregateSpec.Group group, Array key, Array[] args,
            List<VortexAggregateSpec.Call> calls, int row) {
        Object k = null;
        if (group != null) {
            k = Values.valueAt(key, row);
            if (group.key() != null) {
                k = group.key().apply(k);
            }
        }
        Object[] g = groups.computeIfAbsent(hashable(k), h -> newGroup(h, calls.size()));
        for (int a = 0; a < calls.size(); a++) {
            VortexAggregateSpec.Call c = calls.get(a);
            Object v = args[a] == null ? null : Values.valueAt(args[a], row);
            Object acc = g[a + 1];
            switch (c.function()) {
                case COUNT_STAR:
                    g[a + 1] = (acc == null ? 0L : (Long) acc) + 1;
                    break;
                case COUNT:
                    g[a + 1] = (acc == null ? 0L : (Long) acc) + (v == null ? 0 : 1);
                    break;
                case SUM:
                case SUM0:
                    if (v instanceof Double || v instanceof Float) {
                        g[a + 1] = (acc == null ? 0d : (Double) acc) + ((Number) v).doubleValue();
                    } else if (v != null) {
                        g[a + 1] = (acc == null ? BigDecimal.ZERO : (BigDecimal) acc).add(decimal(v));
                    }
                    break;
                default: {
                    boolean min = c.function() == VortexAggregateSpec.Function.MIN;
                    if (v != null && (acc == null || (min ? compare(v, acc) < 0 : compare(v, acc) > 0))) {
                        g[a + 1] = v;
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
