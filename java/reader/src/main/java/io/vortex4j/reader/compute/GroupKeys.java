package io.vortex4j.reader.compute;

import io.vortex4j.reader.array.VarBinDictArray;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A group-key function evaluated per entry of one dictionary, each entry at most once and only
 * when some selected row holds it, and once for null (null rows and null entries): the keys of
 * {@link GroupAggregate}'s computed groups, cached per dictionary ({@link EntryCache}). What the
 * function threw for an entry is kept and rethrown, unchanged, wherever that key is needed.
 */
final class GroupKeys {
    /** Entries whose key is computed; index {@code entries} is null. */
    private Object[] keys;
    private boolean[] done;
    private final Map<Integer, Throwable> failures = new HashMap<>();

    /**
     * What {@code keyOf} threw for entry {@code code} of {@code dictionary} (-1: null), computing
     * the key first if needed; null when it did not throw.
     */
    synchronized Throwable failure(VarBinDictArray.Dictionary dictionary, int code, Function<Object, Object> keyOf) {
        int n = dictionary.entries().length();
        if (keys == null) {
            keys = new Object[n + 1];
            done = new boolean[n + 1];
        }
        int slot = code < 0 || dictionary.entries().isNull(code) ? n : code;
        if (!done[slot]) {
            try {
                keys[slot] = keyOf.apply(slot == n ? null : dictionary.value(slot));
            } catch (Throwable t) {
                failures.put(slot, t);
            }
            done[slot] = true;
        }
        return failures.get(slot);
    }

    /** The key of entry {@code code} (-1: null); rethrows what the function threw for it. */
    synchronized Object key(VarBinDictArray.Dictionary dictionary, int code, Function<Object, Object> keyOf) {
        Throwable t = failure(dictionary, code, keyOf);
        if (t != null) {
            throw EntryCache.rethrow(t);
        }
        int n = dictionary.entries().length();
        return keys[code < 0 || dictionary.entries().isNull(code) ? n : code];
    }
}
