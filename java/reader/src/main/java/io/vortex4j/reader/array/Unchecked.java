package io.vortex4j.reader.array;

/**
 * Reads of array values without the per-read closed check, for the reader's aggregation
 * kernels ({@code io.vortex4j.reader.compute}): they read a batch of rows and check the owning
 * chunk once after it. A read of a closed chunk's memory returns stale bytes but never faults
 * (the native allocator never unmaps what Java can reach), so checking once per batch is safe.
 * Not a user API: the typed getters of each array check every read.
 */
public final class Unchecked {
    private Unchecked() {}

    /** Row {@code i} of an integer column (up to u32) as a long. */
    public static long longAt(Array a, int i) {
        if (a instanceof Int64Array x) {
            return x.values.getLong(i << 3);
        } else if (a instanceof Int32Array x) {
            return x.values.getInt(i << 2);
        } else if (a instanceof Int16Array x) {
            return x.values.getShort(i << 1);
        } else if (a instanceof Int8Array x) {
            return x.values.get(i);
        } else if (a instanceof UInt32Array x) {
            return Integer.toUnsignedLong(x.values.getInt(i << 2));
        } else if (a instanceof UInt16Array x) {
            return Short.toUnsignedInt(x.values.getShort(i << 1));
        } else if (a instanceof UInt8Array x) {
            return Byte.toUnsignedInt(x.values.get(i));
        }
        throw new IllegalStateException("not an integer column: " + a);
    }

    /** Row {@code i} of an i64 column. */
    public static long int64At(Int64Array a, int i) {
        return a.values.getLong(i << 3);
    }

    /** Row {@code i} of an f64 column. */
    public static double float64At(Float64Array a, int i) {
        return a.values.getDouble(i << 3);
    }

    /** Row {@code i} of a float column. */
    public static double doubleAt(Array a, int i) {
        if (a instanceof Float64Array x) {
            return x.values.getDouble(i << 3);
        }
        return ((Float32Array) a).values.getFloat(i << 2);
    }

    /** Whether row {@code i} is valid (not null). */
    public static boolean valid(Array a, int i) {
        return a.validity == null || Array.bit(a.validity, i);
    }

    /** The dictionary code of row {@code i}, or -1 when the row is null. */
    public static int code(VarBinDictArray d, int i) {
        return d.validCodeUnchecked(i);
    }
}
