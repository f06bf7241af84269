package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.RowFilter;
import java.util.Arrays;
import java.util.List;

/**
 * Computes which rows of a chunk a {@link Predicate} selects, as a {@link Bitmap}, and memoizes
 * it per chunk and predicate (thread-safe; dropped when the chunk closes).
 *
 * <p>The predicate is evaluated natively through the filter its scan prepared once ({@link
 * PreparedFilter}, {@link io.vortex4j.reader.Scan#prepared}): its leaves decoded, normalized and
 * resolved once per scan, then per chunk one native call computes the selection. A leaf on a
 * dictionary-encoded string column is evaluated on the dictionary: once per distinct value, then
 * one code lookup per row, no string decoded; a leaf on another column, or on a dictionary larger
 * than the chunk, with the packed-integer kernel or vortex's compute on the encoded data. A
 * {@link Predicate.Computed} leaf (a Java function) runs in Java, on a dictionary column once per
 * entry and once for null, the native kernel then selecting the rows from that per-code table
 * ({@link EntryFilter}), and its selection goes to the native call with the chunk.
 *
 * <p>When the native side declines a chunk (an ILIKE on non-ASCII dictionary entries, a literal it
 * cannot compare), AND and OR combine their children's selections word by word, each child again
 * natively where it can; a declined LIKE leaf is answered by the reader's matcher once per
 * dictionary entry, any other by the generic row-by-row path. All give the same answer.
 *
 * <p>Counts and pushed aggregates need no bitmap in Java: {@link Compute#count} and {@link
 * GroupAggregate} count or aggregate the rows the same prepared filter selects in one native call
 * per chunk; they come back here only for a chunk the native side declines.
 *
 * <p>Native evaluation is on unless the system property {@code vortex4j.dictFilter} is {@code
 * false}, or {@link #setDictFilterEnabled} turns it off: then every leaf takes the generic path.
 */
public final class PredicateEvaluator {
    private static volatile boolean dictFilterEnabled =
            !"false".equalsIgnoreCase(System.getProperty("vortex4j.dictFilter"));

    private PredicateEvaluator() {}

    /** Whether leaves on dictionary columns use the native dictionary filter. */
    public static boolean isDictFilterEnabled() {
        return dictFilterEnabled;
    }

    /** Turns the native dictionary filter on or off for this JVM (the answers do not change). */
    public static void setDictFilterEnabled(boolean enabled) {
        dictFilterEnabled = enabled;
    }

    /** The rows of {@code chunk} where {@code filter} is true. Shared: do not modify. */
    public static Bitmap selection(Chunk chunk, Predicate filter) {
        Bitmap memo = chunk.selectionMemo().get(filter);
        if (memo != null) {
            chunk.handle().checkOpen();
            return memo;
        }
        Bitmap result = dictFilterEnabled && !PreparedFilter.isJavaLeaf(filter) ? prepared(chunk, filter) : null;
        if (result == null) {
            result = evaluate(chunk, filter.normalize());
        }
        chunk.selectionMemo().putIfAbsent(filter, result);
        return result;
    }

    /**
     * Which kernel computed each leaf of {@code filter} (its negation normal form, leaves in
     * order) on {@code chunk} through the filter prepared for its scan: a diagnostic of what
     * {@link #selection} does (a declined chunk shows {@link LeafPath#DECLINED} for the leaf that
     * declined). Evaluates the filter again.
     */
    public static List<LeafPath> leafPaths(Chunk chunk, Predicate filter) {
        PreparedFilter prepared = chunk.scan().prepared(filter);
        if (prepared == null) {
            throw new IllegalStateException("the scan of " + chunk + " is closed");
        }
        int[] paths = new int[prepared.leafCount()];
        Arrays.fill(paths, LeafPath.NOT_EVALUATED.ordinal());
        prepared.select(chunk, paths);
        LeafPath[] all = LeafPath.values();
        return Arrays.stream(paths).mapToObj(p -> all[p]).toList();
    }

    /** The selection by the filter the chunk's scan prepared, or null when it declines the chunk. */
    private static Bitmap prepared(Chunk chunk, Predicate filter) {
        PreparedFilter prepared = chunk.scan().prepared(filter);
        return prepared == null ? null : prepared.select(chunk, null);
    }

    /** The reader's own evaluation of a normalized filter: AND and OR of the children's selections. */
    private static Bitmap evaluate(Chunk chunk, Predicate p) {
        if (p instanceof Predicate.And and) {
            Bitmap acc = Bitmap.all(chunk.length());
            for (Predicate child : and.children()) {
                acc.and(selection(chunk, child));
                if (acc.cardinality() == 0) {
                    break;
                }
            }
            return acc;
        }
        if (p instanceof Predicate.Or or) {
            Bitmap acc = Bitmap.none(chunk.length());
            for (Predicate child : or.children()) {
                acc.or(selection(chunk, child));
            }
            return acc;
        }
        return leaf(chunk, p);
    }

    /**
     * The scan column a leaf tests, checked against it: an unknown column or a literal of another
     * type is a {@link VortexException} naming them.
     */
    static int column(Schema schema, Predicate leaf) {
        int column = schema.indexOf(leaf.column());
        if (column < 0) {
            throw new VortexException("predicate " + leaf + ": unknown column '" + leaf.column()
                    + "' (the scan reads " + schema.names() + ")");
        }
        RowFilter.checkTypes(schema.field(column), leaf);
        return column;
    }

    /**
     * A leaf the native side declines or Java evaluates: a computed leaf, or a LIKE the native side
     * declines (an ILIKE on values that are not all ASCII, see {@link Predicate.Like}), once per
     * dictionary entry; otherwise (or on a column that is not a dictionary) row by row.
     */
    private static Bitmap leaf(Chunk chunk, Predicate leaf) {
        int column = column(chunk.schema(), leaf);
        Bitmap selected = null;
        if (dictFilterEnabled && leaf instanceof Predicate.Computed c) {
            selected = EntryFilter.select(chunk, column, new EntryCache.Identity(c.test()), c.test(), c.negated());
        } else if (dictFilterEnabled && leaf instanceof Predicate.Like l) {
            Predicate.Like positive = new Predicate.Like(l.column(), l.pattern(), l.escape(), l.caseInsensitive(), false);
            java.util.function.Predicate<String> matcher = positive.matcher();
            Predicate.ValueTest matches = v -> v == null ? null : matcher.test((String) v);
            selected = EntryFilter.select(chunk, column, positive, matches, l.negated());
        }
        return selected != null ? selected : RowFilter.select(chunk.column(column), leaf);
    }
}
