package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;
import io.vortex4j.reader.predicate.RowFilter;

/**
 * Computes which rows of a chunk a {@link Predicate} selects, as a {@link Bitmap}, and memoizes
 * it per chunk and predicate (thread-safe; dropped when the chunk closes).
 *
 * <p>The predicate is put in negation normal form; AND and OR then combine the leaves' bitmaps
 * word by word. A leaf on a dictionary-encoded string column is evaluated natively on the
 * dictionary ({@code Native.evaluateDictFilter}): once per distinct value, then one code lookup
 * per row, no string decoded. A leaf on another column, or on a dictionary larger than the
 * chunk, is evaluated natively with vortex's compute on the encoded data. A {@link
 * Predicate.Computed} leaf (a Java function) on a dictionary column runs once per entry and once
 * for null in Java, and the native kernel selects the rows from that per-code table ({@link
 * EntryFilter}); so does an ILIKE on non-ASCII dictionary entries, with the reader's matcher.
 * Leaves none of these take (a literal the native side cannot carry, a computed leaf on another
 * column or on a dictionary larger than the chunk) take the generic row-by-row path. All give
 * the same answer.
 *
 * <p>Counts and pushed aggregates need no bitmap in Java: {@link Compute#count} and {@link
 * GroupAggregate} evaluate a filter prepared once per scan ({@link PreparedFilter}) and count or
 * aggregate the rows it selects in one native call per chunk; they come back here only for a chunk
 * the native side declines.
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
        Bitmap result = evaluate(chunk, filter.normalize());
        chunk.selectionMemo().putIfAbsent(filter, result);
        return result;
    }

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

    private static Bitmap leaf(Chunk chunk, Predicate leaf) {
        int column = column(chunk.schema(), leaf);
        if (dictFilterEnabled) {
            Bitmap selected = leaf instanceof Predicate.Computed c
                    ? EntryFilter.select(chunk, column, new EntryCache.Identity(c.test()), c.test(), c.negated())
                    : nativeSelection(chunk, column, leaf);
            if (selected != null) {
                return selected;
            }
        }
        return RowFilter.select(chunk.column(column), leaf);
    }

    /**
     * The native selection of a leaf; for a LIKE the native side declines (an ILIKE on values
     * that are not all ASCII, see {@link Predicate.Like}), the reader's own matcher once per
     * dictionary entry. Null when neither applies.
     */
    private static Bitmap nativeSelection(Chunk chunk, int column, Predicate leaf) {
        long[] words = nativeFilter(chunk, column, leaf);
        if (words != null) {
            return new Bitmap(words, chunk.length());
        }
        if (leaf instanceof Predicate.Like l) {
            Predicate.Like positive = new Predicate.Like(l.column(), l.pattern(), l.escape(), l.caseInsensitive(), false);
            java.util.function.Predicate<String> matcher = positive.matcher();
            Predicate.ValueTest matches = v -> v == null ? null : matcher.test((String) v);
            return EntryFilter.select(chunk, column, positive, matches, l.negated());
        }
        return null;
    }

    /** The native selection of a leaf (dictionary kernel or vortex compute), or null. */
    private static long[] nativeFilter(Chunk chunk, int column, Predicate leaf) {
        byte[] encoded;
        try {
            encoded = PredicateCodec.encode(leaf);
        } catch (IllegalArgumentException e) {
            return null; // a literal the native side cannot carry (java.time values)
        }
        return callNative(Native::evaluateFilter, chunk, column, encoded);
    }

    /** The native dictionary filter's bitmap alone, or null when it declines. */
    public static long[] dictFilter(Chunk chunk, int column, Predicate leaf) {
        return callNative(Native::evaluateDictFilter, chunk, column, PredicateCodec.encode(leaf));
    }

    /** A native leaf evaluation: (chunk handle, column, encoded leaf) to a bitmap or null. */
    private interface NativeLeaf {
        long[] evaluate(long chunk, int column, byte[] leaf);
    }

    private static long[] callNative(NativeLeaf f, Chunk chunk, int column, byte[] leaf) {
        long h = chunk.handle().acquire();
        try {
            return f.evaluate(h, column, leaf);
        } finally {
            chunk.handle().release();
        }
    }
}
