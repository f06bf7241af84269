package io.vortex4j.reader.compute;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Unchecked;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Group keys and the mapping from rows to group ids. */
final class Groups {
    final List<Object> keys = new ArrayList<>();
    final Map<Object, Integer> ids = new HashMap<>();
    final boolean single;
    /** Number of group columns. */
    final int width;
    /** Maps a value of the group column to its key; null for the identity. */
    final java.util.function.Function<Object, Object> keyOf;

    Groups(int width, java.util.function.Function<Object, Object> keyOf) {
        this.single = width == 0;
        this.width = width;
        this.keyOf = keyOf;
        if (single) {
            keys.add(null);
        }
    }

    int size() {
        return keys.size();
    }

    /** The group of a row whose group column holds {@code value}. */
    int idOfValue(Object value) {
        return id(keyOf == null ? value : keyOf.apply(value));
    }

    /**
     * The group of rows holding entry {@code code} of {@code dictionary} (-1: a null code):
     * a computed key comes from the dictionary's {@link GroupKeys}, computed once per entry.
     */
    int idOfCode(VarBinDictArray.Dictionary dictionary, int code) {
        if (keyOf == null) {
            return id(code < 0 ? null : dictionary.value(code));
        }
        return id(keys(dictionary).key(dictionary, code, keyOf));
    }

    /**
     * The group of rows whose group columns hold the entries of composite code {@code code}
     * ({@code Native.aggregateChunk}): per column, the slot {@code code % (n + 1)} of its
     * dictionary of {@code n} entries, slot {@code n} a null.
     */
    int idOfCodes(VarBinDictArray.Dictionary[] dictionaries, long code) {
        Object[] values = new Object[dictionaries.length];
        for (int k = 0; k < values.length; k++) {
            long radix = dictionaries[k].entries().length() + 1L;
            int slot = (int) Long.remainderUnsigned(code, radix);
            code = Long.divideUnsigned(code, radix);
            values[k] = slot == radix - 1 ? null : dictionaries[k].value(slot);
        }
        return id(new KeyTuple(values));
    }

    private GroupKeys keys(VarBinDictArray.Dictionary dictionary) {
        return EntryCache.holder(dictionary.strings().id(), new EntryCache.Identity(keyOf), GroupKeys::new);
    }

    /**
     * Before natively aggregated groups are keyed: if the key function throws for an entry
     * some selected row holds ({@code rowsPerGroup}: per code, the last the null group),
     * rethrows what it threw for the first such row in row order, as keying row by row would.
     */
    void checkKeys(Chunk chunk, int column, VarBinDictArray.Dictionary dictionary, long[] rowsPerGroup,
            java.util.function.Supplier<Bitmap> selection) {
        if (keyOf == null) {
            return;
        }
        GroupKeys keys = keys(dictionary);
        VarBinArray entries = dictionary.entries();
        int n = entries.length();
        long[] failing = null;
        boolean nullFails = rowsPerGroup[n] > 0 && keys.failure(dictionary, -1, keyOf) != null;
        for (int c = 0; c <= n; c++) {
            // The null group also holds the rows of null entries.
            boolean fails = c == n ? nullFails
                    : entries.isNull(c) ? nullFails
                    : rowsPerGroup[c] > 0 && keys.failure(dictionary, c, keyOf) != null;
            if (fails) {
                failing = failing != null ? failing : new long[Bitmap.wordsFor(n + 1)];
                failing[c >>> 6] |= 1L << c;
            }
        }
        if (failing == null) {
            return;
        }
        Bitmap rows = EntryFilter.rows(chunk, column, failing);
        Bitmap selected = selection.get();
        if (selected != null) {
            rows.and(selected);
        }
        int row = rows.nextSetBit(0);
        throw EntryCache.rethrow(keys.failure(dictionary, EntryFilter.code(chunk, column, row), keyOf));
    }

    int id(Object key) {
        Object k = key instanceof byte[] ? new Binary((byte[]) key) : key;
        Integer g = ids.get(k);
        if (g == null) {
            g = keys.size();
            keys.add(key);
            ids.put(k, g);
        }
        return g;
    }

    /** Fills the selected rows and their group ids, grouped by {@code keys}; returns how many. */
    int assign(Array[] keys, int n, Bitmap selection, int[] rows, int[] gids) {
        int m = 0;
        if (selection == null) {
            for (int i = 0; i < n; i++) {
                rows[i] = i;
            }
            m = n;
        } else {
            long[] words = selection.words();
            for (int w = 0; w < words.length; w++) {
                long bits = words[w];
                while (bits != 0) {
                    rows[m++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                }
            }
        }
        if (single) {
            java.util.Arrays.fill(gids, 0, m, 0);
        } else if (width > 1) {
            for (int k = 0; k < m; k++) {
                Object[] values = new Object[width];
                for (int c = 0; c < width; c++) {
                    values[c] = Values.valueAt(keys[c], rows[k]);
                }
                gids[k] = id(new KeyTuple(values));
            }
        } else if (keys[0] instanceof VarBinDictArray dict) {
            assignByCode(dict, rows, gids, m);
        } else {
            for (int k = 0; k < m; k++) {
                gids[k] = idOfValue(Values.valueAt(keys[0], rows[k]));
            }
        }
        return m;
    }

    /**
     * Groups by dictionary code; each code's key is decoded (and computed) once, in row order,
     * so a key function failing on an entry fails at the first row holding it.
     */
    private void assignByCode(VarBinDictArray dict, int[] rows, int[] gids, int m) {
        VarBinDictArray.Dictionary dictionary = new VarBinDictArray.Dictionary(dict.dictionary(), dict.strings());
        int[] codeGroup = new int[dict.dictionary().length()];
        java.util.Arrays.fill(codeGroup, -1);
        int nullGroup = -1;
        for (int k = 0; k < m; k++) {
            int i = rows[k];
            int code = Unchecked.code(dict, i);
            if (code < 0) {
                if (nullGroup < 0) {
                    nullGroup = idOfCode(dictionary, -1);
                }
                gids[k] = nullGroup;
                continue;
            }
            int g = codeGroup[code];
            if (g < 0) {
                g = idOfCode(dictionary, code);
                codeGroup[code] = g;
            }
            gids[k] = g;
        }
    }
}
