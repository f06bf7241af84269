package io.vortex4j.reader.compute;

import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.predicate.Predicate;

import java.util.HashMap;
import java.util.Map;

/**
 * A {@link Predicate.ValueTest} evaluated once per entry of one dictionary, and once for null:
 * TRUE, FALSE, unknown or the exception it threw, per code. Gives the per-code tables the native
 * kernel selects rows with (layout of {@code Native.selectByCodeTable}: bit {@code c} for entry
 * {@code c}, bit {@code n} for rows with a null code). A null entry takes the null answer.
 */
final class EntryTable {
    private static final byte FALSE = 0, TRUE = 1, UNKNOWN = 2, FAILED = 3;

    private byte[] results;
    private byte nullResult;
    private Throwable nullFailure;
    private final Map<Integer, Throwable> failures = new HashMap<>();
    private long[] selects;
    private long[] selectsNegated;
    private long[] failed;

    /** Evaluates {@code test} on every entry of {@code dictionary}, unless done already. */
    synchronized EntryTable fill(VarBinDictArray.Dictionary dictionary, Predicate.ValueTest test) {
        if (results != null) {
            return this;
        }
        int n = dictionary.entries().length();
        byte[] r = new byte[n];
        try {
            nullResult = result(test.test(null));
        } catch (Throwable t) {
            nullResult = FAILED;
            nullFailure = t;
        }
        for (int c = 0; c < n; c++) {
            Object value = dictionary.value(c);
            if (value == null) {
                r[c] = nullResult;
                continue;
            }
            try {
                r[c] = result(test.test(value));
            } catch (Throwable t) {
                r[c] = FAILED;
                failures.put(c, t);
            }
        }
        results = r;
        return this;
    }

    private static byte result(Boolean b) {
        return b == null ? UNKNOWN : b ? TRUE : FALSE;
    }

    /** The table of the codes whose rows are selected: the test TRUE ({@code negated}: FALSE). */
    synchronized long[] selects(boolean negated) {
        if (negated) {
            if (selectsNegated == null) {
                selectsNegated = table(FALSE);
            }
            return selectsNegated;
        }
        if (selects == null) {
            selects = table(TRUE);
        }
        return selects;
    }

    /** The table of the codes whose test threw, or null when none did. */
    synchronized long[] failed() {
        if (failures.isEmpty() && nullFailure == null) {
            return null;
        }
        if (failed == null) {
            failed = table(FAILED);
        }
        return failed;
    }

    /** What the test threw for a row holding entry {@code code} (-1: a null row). */
    synchronized Throwable failure(int code) {
        return code < 0 || failures.get(code) == null ? nullFailure : failures.get(code);
    }

    private long[] table(byte want) {
        int n = results.length;
        long[] words = new long[Bitmap.wordsFor(n + 1)];
        for (int c = 0; c < n; c++) {
            if (results[c] == want) {
                words[c >>> 6] |= 1L << c;
            }
        }
        if (nullResult == want) {
            words[n >>> 6] |= 1L << n;
        }
        return words;
    }
}
