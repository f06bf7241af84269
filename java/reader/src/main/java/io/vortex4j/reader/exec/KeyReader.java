package io.vortex4j.reader.exec;

import io.vortex4j.VortexException;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.BoolArray;
import io.vortex4j.reader.array.DecimalArray;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int16Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt64Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;

/**
 * Reads sort keys of one column type from a chunk's typed array, in a form whose natural order is
 * the column's value order ({@link TopN} lists it). Fixed-width types become a {@code long}
 * compared signed (unsigned 64-bit values and floats are mapped so that it is); strings, binary
 * and decimals become objects compared with {@code compareTo}.
 */
abstract class KeyReader {
    /** Whether keys are longs ({@link #longAt}) rather than objects ({@link #objectAt}). */
    final boolean isLong;

    private KeyReader(boolean isLong) {
        this.isLong = isLong;
    }

    /** The key of non-null row {@code row} of {@code a} (only when {@link #isLong}). */
    long longAt(Array a, int row) {
        throw new IllegalStateException("not a long key");
    }

    /** The key of non-null row {@code row} of {@code a} (only when not {@link #isLong}). */
    Comparable<Object> objectAt(Array a, int row) {
        throw new IllegalStateException("not an object key");
    }

    /**
     * A reader of {@code key}'s keys from a column of {@code type}; throws naming the column for a
     * type that has no order, or a granule on a type that has none.
     */
    static KeyReader of(SortKey key, DataType type) {
        KeyReader reader = of(key.column(), type);
        long granule = key.granule();
        if (granule == 1) {
            return reader;
        }
        switch (type.kind()) {
            case INT8: case INT16: case INT32: case INT64: case DATE: case TIME: case TIMESTAMP:
                return longs((a, i) -> Math.floorDiv(reader.longAt(a, i), granule));
            default:
                throw new VortexException("column '" + key.column() + "' of type " + type
                        + " cannot be ordered by a granule (" + granule + ")");
        }
    }

    /** A reader of {@code column}'s keys; throws naming the column for a type that has no order. */
    private static KeyReader of(String column, DataType type) {
        switch (type.kind()) {
            case BOOL: return longs((a, i) -> ((BoolArray) a).getBoolean(i) ? 1 : 0);
            case INT8: return longs((a, i) -> ((Int8Array) a).getByte(i));
            case INT16: return longs((a, i) -> ((Int16Array) a).getShort(i));
            case INT32:
            case DATE: return longs((a, i) -> ((Int32Array) a).getInt(i));
            case INT64:
            case TIME: // raw units: their order is the order of any coarser unit's values
            case TIMESTAMP: return longs((a, i) -> ((Int64Array) a).getLong(i));
            case UINT8: return longs((a, i) -> ((UInt8Array) a).getInt(i));
            case UINT16: return longs((a, i) -> ((UInt16Array) a).getInt(i));
            case UINT32: return longs((a, i) -> ((UInt32Array) a).getLong(i));
            // Flipping the sign bit makes signed order the unsigned order.
            case UINT64: return longs((a, i) -> ((UInt64Array) a).getLong(i) ^ Long.MIN_VALUE);
            // f32 widened to f64 keeps its order (NaN, -0.0 included).
            case FLOAT16:
            case FLOAT32: return longs((a, i) -> sortableBits(((Float32Array) a).getFloat(i)));
            case FLOAT64: return longs((a, i) -> sortableBits(((Float64Array) a).getDouble(i)));
            case UTF8: return objects((a, i) -> a instanceof VarBinDictArray d ? d.getString(i)
                    : ((VarBinArray) a).getString(i));
            case BINARY: return objects((a, i) -> new Binary(a instanceof VarBinDictArray d ? d.getBytes(i)
                    : ((VarBinArray) a).getBytes(i)));
            case DECIMAL: return objects((a, i) -> ((DecimalArray) a).getBigDecimal(i));
            case NULL: return longs((a, i) -> 0); // every row is null: the reader is never asked
            default:
                throw new VortexException("column '" + column + "' of type " + type + " cannot be sorted");
        }
    }

    /**
     * A long whose signed order is {@link Double#compare}'s order of {@code d}: negative values'
     * magnitude bits reversed, NaN (one canonical pattern) above infinity, -0.0 below 0.0.
     */
    static long sortableBits(double d) {
        long bits = Double.doubleToLongBits(d);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    @FunctionalInterface
    private interface LongAt {
        long at(Array a, int row);
    }

    @FunctionalInterface
    private interface ObjectAt {
        Comparable<?> at(Array a, int row);
    }

    private static KeyReader longs(LongAt at) {
        return new KeyReader(true) {
            @Override
            long longAt(Array a, int row) {
                return at.at(a, row);
            }
        };
    }

    private static KeyReader objects(ObjectAt at) {
        return new KeyReader(false) {
            @Override
            @SuppressWarnings("unchecked")
            Comparable<Object> objectAt(Array a, int row) {
                return (Comparable<Object>) at.at(a, row);
            }
        };
    }
}
