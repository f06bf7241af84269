package io.vortex4j.reader;

import io.vortex4j.reader.internal.Native;

/**
 * The per-code table of a leaf predicate on a dictionary-encoded column: which dictionary entries
 * satisfy it, evaluated natively once per dictionary (and cached there). Fused kernels use it to
 * filter by code, e.g. {@code SUM(volume) WHERE sym IN (...) GROUP BY sym} never decodes a string.
 */
public final class DictFilter {
    private final boolean[] matches;
    private final boolean nullRows;

    private DictFilter(boolean[] matches, boolean nullRows) {
        this.matches = matches;
        this.nullRows = nullRows;
    }

    /**
     * The table of {@code leaf} on column {@code column} of {@code chunk}, or null when that
     * column is not a dictionary-encoded string column in this chunk, the dictionary filter is
     * switched off ({@link PredicateEvaluator#setDictFilterEnabled}), or the leaf is not
     * evaluated natively (a {@link Predicate.Computed} leaf, an ILIKE on non-ASCII entries).
     */
    public static DictFilter of(Chunk chunk, int column, Predicate leaf) {
        Predicate normalized = leaf.normalize();
        if (!normalized.isLeaf() || !PredicateEvaluator.isDictFilterEnabled()) {
            return null;
        }
        RowFilter.checkTypes(chunk.schema().field(column), normalized);
        byte[] encoded;
        try {
            encoded = PredicateCodec.encode(normalized);
        } catch (IllegalArgumentException e) {
            return null; // a Java function, or a literal the native side cannot carry
        }
        long[] words;
        long h = chunk.handle().acquire();
        try {
            words = Native.dictCodeTable(h, column, encoded);
        } finally {
            chunk.handle().release();
        }
        if (words == null) {
            return null;
        }
        Array a = chunk.column(column);
        if (!(a instanceof VarBinDictArray)) {
            return null;
        }
        int size = ((VarBinDictArray) a).dictionary().length();
        boolean[] matches = new boolean[size];
        for (int c = 0; c < size; c++) {
            matches[c] = (words[c >>> 6] & (1L << c)) != 0;
        }
        return new DictFilter(matches, (words[size >>> 6] & (1L << size)) != 0);
    }

    /** Whether rows whose code is {@code code} are selected. */
    public boolean matchesCode(int code) {
        return matches[code];
    }

    /** Whether rows with a null code are selected. */
    public boolean matchesNullCode() {
        return nullRows;
    }

    /** Entries in the dictionary. */
    public int size() {
        return matches.length;
    }

    /** How many entries are selected. */
    public int matchCount() {
        int n = 0;
        for (boolean m : matches) {
            n += m ? 1 : 0;
        }
        return n;
    }
}
