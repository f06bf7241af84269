package io.vortex4j.reader.compute;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.predicate.Predicate;

/** Filter evaluation entry points over chunks. */
public final class Compute {
    private Compute() {}

    /**
     * Whether row {@code row} of {@code chunk} satisfies {@code filter}. The chunk's selection is
     * computed once (see {@link PredicateEvaluator}) and memoized, so this is a bit lookup.
     */
    public static boolean matches(Chunk chunk, Predicate filter, int row) {
        return PredicateEvaluator.selection(chunk, filter).get(row);
    }

    /** The whole selection of {@code chunk} for vectorized consumers. Shared: do not modify. */
    public static Bitmap selection(Chunk chunk, Predicate filter) {
        return PredicateEvaluator.selection(chunk, filter);
    }

    /**
     * How many rows of {@code chunk} satisfy {@code filter}. Unless the chunk's selection is
     * memoized already, counted natively in one call with the filter prepared once per scan
     * ({@link PreparedFilter}): no bitmap crosses into Java. Over the rest of a scan, {@link
     * io.vortex4j.reader.Scan#countRemaining} gives the same sum with one native call per batch
     * of chunks.
     */
    public static int count(Chunk chunk, Predicate filter) {
        if (!chunk.selectionMemo().containsKey(filter) && PredicateEvaluator.isDictFilterEnabled()) {
            PreparedFilter prepared = chunk.scan().prepared(filter);
            long n = prepared == null ? -1 : prepared.count(chunk);
            if (n >= 0) {
                return Math.toIntExact(n);
            }
        }
        return selection(chunk, filter).cardinality();
    }
}
