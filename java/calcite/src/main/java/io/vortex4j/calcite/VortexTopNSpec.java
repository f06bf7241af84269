package io.vortex4j.calcite;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.SortKey;
import io.vortex4j.reader.exec.TopN;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * What a {@link VortexTopNScan} computes: the scan's columns and filter ({@link VortexScanSpec}),
 * the sort keys, and the row count and offset, each a constant or a JDBC parameter ({@code
 * LIMIT ?}) read when the query runs. Handed to the generated code, which calls {@link
 * #enumerable(DataContext)}; the reader's {@link TopN} does the work on the table's threads.
 */
public final class VortexTopNSpec {
    /** A row count or offset: {@code value}, or parameter {@code parameter} when that is not negative. */
    record Bound(long value, int parameter) {
        static Bound constant(long value) {
            return new Bound(value, -1);
        }

        long resolve(DataContext root, String what) {
            if (parameter < 0) {
                return value;
            }
            Object v = root == null ? null : root.get("?" + parameter);
            if (!(v instanceof Number n) || n.longValue() < 0) {
                throw new IllegalArgumentException(what + " parameter " + (parameter + 1) + " must be a non-negative"
                        + " integer, not " + v);
            }
            return n.longValue();
        }

        @Override
        public String toString() {
            return parameter < 0 ? Long.toString(value) : "?" + parameter;
        }
    }

    final VortexScanSpec scan;
    final List<SortKey> keys;
    final Bound fetch;
    final Bound offset;

    VortexTopNSpec(VortexScanSpec scan, List<SortKey> keys, Bound fetch, Bound offset) {
        this.scan = scan;
        this.keys = List.copyOf(keys);
        this.fetch = fetch;
        this.offset = offset;
    }

    /** The ordered rows, parameters bound from {@code root}; called by generated code. */
    public Enumerable<Object> enumerable(DataContext root) {
        Predicate filter = scan.filter == null || root == null ? scan.filter
                : VortexScanSpec.bindParameters(scan.filter, root);
        long n = fetch.resolve(root, "LIMIT");
        long skip = offset.resolve(root, "OFFSET");
        Cancellation cancellation = VortexScanSpec.cancellation(root);
        return new AbstractEnumerable<Object>() {
            @Override
            public Enumerator<Object> enumerator() {
                return Linq4j.enumerator(cancellation.call(() -> rows(filter, skip, n)));
            }
        };
    }

    /** Runs the top-n: per output column, a file column's value from the chunk or a partition value. */
    private List<Object> rows(Predicate filter, long skip, long n) {
        List<VortexColumn> columns = scan.projectedColumns();
        List<String> read = new ArrayList<>();
        int[] positions = new int[columns.size()];
        VortexColumn.ValueReader[] readers = new VortexColumn.ValueReader[columns.size()];
        for (int i = 0; i < positions.length; i++) {
            VortexColumn c = columns.get(i);
            if (c.isPartition()) {
                positions[i] = -1;
                continue;
            }
            if (!read.contains(c.name())) {
                read.add(c.name());
            }
            positions[i] = read.indexOf(c.name());
            readers[i] = c.reader();
        }
        VortexDataset dataset = scan.table.dataset();
        boolean scalar = scan.scalar;
        return TopN.run(dataset, dataset.splits(filter), read, filter, keys, skip, n, scan.table.threads(),
                (split, arrays, row) -> {
                    Object[] values = new Object[positions.length];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = positions[i] < 0
                                ? columns.get(i).fromReaderValue(split.partitionValues().get(columns.get(i).name()))
                                : readers[i].read(arrays[positions[i]], row);
                    }
                    return scalar ? values[0] : values;
                });
    }
}
