package io.vortex4j.calcite;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.predicate.Predicate;
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
            out.add(table.column(f));
        }
        return out;
    }

    /** The rows of the scan, its filter's parameters bound from {@code root}; called by generated code. */
    public Enumerable<Object> enumerable(DataContext root) {
        Predicate boundFilter = filter == null || root == null ? filter : bindParameters(filter, root);
        VortexScanSpec bound = boundFilter == filter ? this : new VortexScanSpec(table, fields, boundFilter, scalar);
        return bound.rows(cancellation(root));
    }

    /**
     * The statement's cancel flag and timeout ({@code Statement.cancel}, {@code setQueryTimeout},
     * which Calcite hands every query in its data context), the deadline counted from now: the
     * query starts executing when the generated code asks for its scans.
     */
    public static Cancellation cancellation(DataContext root) {
        if (root == null) {
            return Cancellation.NONE;
        }
        AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
        Long timeout = DataContext.Variable.TIMEOUT.get(root);
        return Cancellation.of(flag, timeout == null ? 0 : timeout);
    }

    /**
     * {@code filter} with each JDBC parameter {@code ?} replaced by its value in {@code root},
     * converted to the parameter's SQL type as Calcite's own code converts it (integers narrowed
     * with Java's wrap-around, e.g. 128 as TINYINT is -128), so the scan compares what Calcite
     * would.
     */
    static Predicate bindParameters(Predicate filter, DataContext root) {
        return filter.bind(p -> parameterValue(root.get("?" + p.index()), p));
    }

    private static Object parameterValue(Object v, Predicate.Parameter p) {
        if (v == null || "VARCHAR".equals(p.type()) && v instanceof String) {
            return v;
        }
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("parameter " + (p.index() + 1) + " of type " + p.type()
                    + " cannot take " + v + " (" + v.getClass().getName() + ")");
        }
        switch (p.type()) {
            case "TINYINT": return n.byteValue();
            case "SMALLINT": return n.shortValue();
            case "INTEGER": return n.intValue();
            case "BIGINT": return n.longValue();
            default: throw new IllegalArgumentException("parameter " + (p.index() + 1) + " of type " + p.type()
                    + " cannot take " + v);
        }
    }

    Enumerable<Object> rows(Cancellation cancellation) {
        return VortexTable.rows(this, cancellation);
    }
}
