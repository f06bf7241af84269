package io.vortex4j.reader.array;

import java.util.Arrays;

/**
 * A selection of rows: bit {@code i} of word {@code i >>> 6} (least significant bit first) is
 * row {@code i}. Bits at and beyond {@link #length()} are always zero. Instances returned by the
 * evaluator are shared and must not be modified; copy before combining in place.
 */
public final class Bitmap {
    private final long[] words;
    private final int length;

    /** Wraps {@code words} (not copied) as a selection of {@code length} rows. */
    public Bitmap(long[] words, int length) {
        if (words.length != wordsFor(length)) {
            throw new IllegalArgumentException(words.length + " words for " + length + " rows");
        }
        this.words = words;
        this.length = length;
        clearTail();
    }

    /** No row selected. */
    public static Bitmap none(int length) {
        return new Bitmap(new long[wordsFor(length)], length);
    }

    /** Every row selected. */
    public static Bitmap all(int length) {
        long[] w = new long[wordsFor(length)];
        Arrays.fill(w, -1L);
        return new Bitmap(w, length);
    }

    public static int wordsFor(int length) {
        return (length + 63) >>> 6;
    }

    /** The number of rows covered. */
    public int length() {
        return length;
    }

    /** Whether row {@code i} is selected. */
    public boolean get(int i) {
        return (words[i >>> 6] & (1L << i)) != 0;
    }

    /** The number of selected rows. */
    public int cardinality() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** The words (shared, not copied). */
    public long[] words() {
        return words;
    }

    /** A copy that may be modified. */
    public Bitmap copy() {
        return new Bitmap(words.clone(), length);
    }

    /** Keeps the rows selected in both (in place); returns this. */
    public Bitmap and(Bitmap other) {
        check(other);
        for (int i = 0; i < words.length; i++) {
            words[i] &= other.words[i];
        }
        return this;
    }

    /** Adds the rows selected in {@code other} (in place); returns this. */
    public Bitmap or(Bitmap other) {
        check(other);
        for (int i = 0; i < words.length; i++) {
            words[i] |= other.words[i];
        }
        return this;
    }

    /** Index of the first selected row at or after {@code from}, or -1. */
    public int nextSetBit(int from) {
        if (from >= length) {
            return -1;
        }
        int w = from >>> 6;
        long word = words[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == words.length) {
                return -1;
            }
            word = words[w];
        }
    }

    private void check(Bitmap other) {
        if (other.length != length) {
            throw new IllegalArgumentException("bitmaps of " + length + " and " + other.length + " rows");
        }
    }

    private void clearTail() {
        if ((length & 63) != 0) {
            words[words.length - 1] &= (1L << length) - 1;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bitmap && ((Bitmap) o).length == length && Arrays.equals(words, ((Bitmap) o).words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words) * 31 + length;
    }

    @Override
    public String toString() {
        return "Bitmap[" + cardinality() + " of " + length + "]";
    }
}
