package io.vortex4j.reader.dataset;

import io.vortex4j.VortexException;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.RowFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A filter with the partition columns of one file replaced by that file's values: either "no row
 * of the file can match" ({@link #excludesFile}) or the part left for the file's own columns
 * ({@link #residual}, null when every row passes the partition part and nothing else remains).
 *
 * <p>The filter is normalized first (negations pushed to the leaves, SQL's unknown kept there), so
 * a partition leaf that is false or unknown for the file's value can be treated as false.
 */
final class PartitionFilter {
    /** Sentinels while folding: a subtree known true or known false. */
    private static final Object TRUE = new Object();
    private static final Object FALSE = new Object();

    private final boolean excludesFile;
    private final Predicate residual;

    private PartitionFilter(boolean excludesFile, Predicate residual) {
        this.excludesFile = excludesFile;
        this.residual = residual;
    }

    /** {@code filter} (may be null) applied to a file with the given partition values. */
    static PartitionFilter of(Predicate filter, Map<String, Object> partitionValues) {
        if (filter == null) {
            return new PartitionFilter(false, null);
        }
        if (partitionValues.isEmpty()) {
            return new PartitionFilter(false, filter);
        }
        Object folded = fold(filter.normalize(), partitionValues);
        if (folded == FALSE) {
            return new PartitionFilter(true, null);
        }
        return new PartitionFilter(false, folded == TRUE ? null : (Predicate) folded);
    }

    /** Whether no row of the file satisfies the filter, by its partition values alone. */
    boolean excludesFile() {
        return excludesFile;
    }

    /** The filter left over the file's own columns, or null for none. */
    Predicate residual() {
        return residual;
    }

    private static Object fold(Predicate p, Map<String, Object> values) {
        if (p instanceof Predicate.And a) {
            List<Predicate> kept = new ArrayList<>();
            for (Predicate c : a.children()) {
                Object f = fold(c, values);
                if (f == FALSE) {
                    return FALSE;
                }
                if (f != TRUE) {
                    kept.add((Predicate) f);
                }
            }
            return kept.isEmpty() ? TRUE : kept.size() == 1 ? kept.get(0) : new Predicate.And(kept);
        }
        if (p instanceof Predicate.Or o) {
            List<Predicate> kept = new ArrayList<>();
            for (Predicate c : o.children()) {
                Object f = fold(c, values);
                if (f == TRUE) {
                    return TRUE;
                }
                if (f != FALSE) {
                    kept.add((Predicate) f);
                }
            }
            return kept.isEmpty() ? FALSE : kept.size() == 1 ? kept.get(0) : new Predicate.Or(kept);
        }
        // Normalized: no Not above a leaf.
        if (!values.containsKey(p.column())) {
            return p;
        }
        Object value = values.get(p.column());
        try {
            return RowFilter.test(p, value) ? TRUE : FALSE;
        } catch (ClassCastException | IllegalArgumentException e) {
            throw new VortexException("cannot evaluate " + p + " on the partition column '" + p.column()
                    + "' (value " + value + "): " + e.getMessage(), e);
        }
    }
}
