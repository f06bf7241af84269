package io.vortex4j.reader.compute;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.predicate.Predicate;

/**
 * A leaf whose test is a Java function ({@link Predicate.Computed}, or an ILIKE the native side
 * cannot match exactly) on a dictionary-encoded string column: the function runs once per
 * dictionary entry and once for null ({@link EntryTable}, cached per dictionary), and the native
 * kernel selects the rows from that per-code table, fused into the unpacking of the codes.
 *
 * <p>A function that throws on an entry fails only the chunks where some row holds that entry
 * (a dictionary may hold values no row of a chunk uses); the exception of the first such row,
 * in row order, is rethrown unchanged, as row-by-row evaluation would have raised it.
 */
final class EntryFilter {
    private EntryFilter() {}

    /**
     * The rows of column {@code column} of {@code chunk} whose value {@code test} answers TRUE
     * ({@code negated}: FALSE), or null when the column is not a dictionary of strings in this
     * chunk or its dictionary is larger than the chunk (then rows are cheaper to test one by one).
     * {@code function} identifies the test in the cache: equal functions must be the same test.
     */
    static Bitmap select(Chunk chunk, int column, Object function, Predicate.ValueTest test, boolean negated) {
        VarBinDictArray.Dictionary dictionary = chunk.dictionary(column);
        if (dictionary == null || dictionary.entries().length() > chunk.length()) {
            return null;
        }
        EntryTable table = EntryCache.holder(dictionary.strings().id(), function, EntryTable::new)
                .fill(dictionary, test);
        long[] failed = table.failed();
        if (failed != null) {
            Bitmap failing = rows(chunk, column, failed);
            int row = failing.nextSetBit(0);
            if (row >= 0) {
                throw EntryCache.rethrow(table.failure(code(chunk, column, row)));
            }
        }
        return rows(chunk, column, table.selects(negated));
    }

    /** The rows whose code the table marks. */
    static Bitmap rows(Chunk chunk, int column, long[] table) {
        long[] words;
        long h = chunk.handle().acquire();
        try {
            words = Native.selectByCodeTable(h, column, table);
        } finally {
            chunk.handle().release();
        }
        if (words == null) {
            throw new IllegalStateException("column " + column + " of " + chunk + " is not dictionary-encoded");
        }
        return new Bitmap(words, chunk.length());
    }

    /** The code of row {@code row}, or -1 for a null code. */
    static int code(Chunk chunk, int column, int row) {
        VarBinDictArray a = (VarBinDictArray) chunk.column(column);
        return a.isCodeNull(row) ? -1 : a.getCode(row);
    }
}
