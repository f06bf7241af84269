package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.array.VarBinDictArray;
import java.time.LocalDate;

/**
 * The keys of a chunk's groups as the native kernel sends them when several group columns mix
 * dictionaries with integer or date columns ({@code Native.aggregateChunk}): per column, each
 * group's value (a dictionary slot, an integer, a date's days) and a bitmap of null keys. Keys are
 * the Java values {@link io.vortex4j.reader.array.Values#valueAt} gives, so groups merge with
 * those of chunks grouped row by row.
 */
final class KeyValues {
    private final VarBinDictArray.Dictionary[] dictionaries;
    private final DataType.Kind[] kinds;
    private final String[] names;
    private final long[][] values;
    private final long[][] nulls;

    /** The keys at {@code result[from..]}: per group column, its values and null bitmap. */
    KeyValues(Chunk chunk, int[] keyColumns, VarBinDictArray.Dictionary[] dictionaries, Object[] result, int from) {
        this.dictionaries = dictionaries;
        kinds = new DataType.Kind[keyColumns.length];
        names = new String[keyColumns.length];
        values = new long[keyColumns.length][];
        nulls = new long[keyColumns.length][];
        for (int k = 0; k < keyColumns.length; k++) {
            kinds[k] = chunk.schema().field(keyColumns[k]).type().kind();
            names[k] = chunk.schema().field(keyColumns[k]).name();
            values[k] = (long[]) result[from + 2 * k];
            nulls[k] = (long[]) result[from + 2 * k + 1];
        }
    }

    /** The key of native group {@code g}. */
    KeyTuple key(int g) {
        Object[] key = new Object[values.length];
        for (int k = 0; k < key.length; k++) {
            if ((nulls[k][g >>> 6] >>> g & 1) == 0) {
                long v = values[k][g];
                key[k] = dictionaries[k] != null ? dictionaries[k].value((int) v) : integer(k, v);
            }
        }
        return new KeyTuple(key);
    }

    /** An integer or date key as {@code Values.valueAt} boxes it. */
    private Object integer(int k, long v) {
        return switch (kinds[k]) {
            case INT8 -> (byte) v;
            case INT16 -> (short) v;
            case INT32, UINT8, UINT16 -> (int) v;
            case INT64, UINT32 -> v;
            case DATE -> LocalDate.ofEpochDay(v);
            default -> throw new VortexException("group column '" + names[k] + "': native key of type " + kinds[k]
                    + " is not an integer or date");
        };
    }
}
