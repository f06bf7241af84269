package io.vortex4j.calcite;

import io.vortex4j.reader.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;

/**
 * What a {@link VortexTableScan} reads: which columns of the table, which pushed filter, and
 * whether rows are single values (one column) or arrays. Handed to the generated code of a
 * query, which calls {@link #enumerable(DataContext)}.
 */
public final class VortexScanSpec {
    final VortexTable table;
    final int[] fields;
    final Predicate filter;
    final boolean scalar;

    VortexScanSpec(VortexTable table, int[] fields, Predicate filter, boolean scalar) {
        this.table = table;
        this.fields = fields.clone();
        this.filter = filter;
        this.scalar = scalar;
    }

    List<VortexColumn> projectedColumns() {
        List<VortexColumn> out = new ArrayList<>(fields.length);
        for (int f : fields) {
            out.add(table.columns().get(f));
        }
        return out;
    }

    /** The rows of the scan; called by generated code. */
    public Enumerable<Object> enumerable(DataContext root) {
        return rows(root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root));
    }

    Enumerable<Object> rows(AtomicBoolean cancel) {
        return VortexTable.rows(this, cancel);
    }
}
