package io.vortex4j.reader;

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

    /** How many rows of {@code chunk} satisfy {@code filter}. */
    public static int count(Chunk chunk, Predicate filter) {
        return selection(chunk, filter).cardinality();
    }
}
