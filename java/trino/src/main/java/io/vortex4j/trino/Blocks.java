package io.vortex4j.trino;

import io.airlift.slice.DynamicSliceOutput;
import io.trino.spi.block.Bitmap;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.BoolArray;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int16Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.VarBinArray;
import java.util.Optional;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;

/**
 * One chunk column as a Trino block, holding the selected rows ({@code rows}: chunk rows in
 * order, or null for all). Integers, floats, booleans, dates and strings are copied from the
 * reader's arrays into Trino's flat blocks; dictionary strings are left to {@link
 * DictionaryBlocks}; the other types go through boxed values ({@link Values}).
 */
final class Blocks {
    private Blocks() {}

    static Block of(Type type, Array array, int[] rows, int count) {
        if (array instanceof Int64Array a && type instanceof BigintType) {
            return longs(a, rows, count, a::getLong);
        }
        if (array instanceof UInt32Array a && type instanceof BigintType) {
            return longs(a, rows, count, a::getLong);
        }
        if (array instanceof Float64Array a && type instanceof DoubleType) {
            return longs(a, rows, count, r -> Double.doubleToLongBits(a.getDouble(r)));
        }
        if (array instanceof Int32Array a && (type instanceof IntegerType || type instanceof DateType)) {
            return ints(a, rows, count, a::getInt);
        }
        if (array instanceof UInt16Array a && type instanceof IntegerType) {
            return ints(a, rows, count, a::getInt);
        }
        if (array instanceof Float32Array a && type instanceof RealType) {
            return ints(a, rows, count, r -> Float.floatToIntBits(a.getFloat(r)));
        }
        if (array instanceof Int16Array a && type instanceof SmallintType) {
            return shorts(a, rows, count, a::getShort);
        }
        if (array instanceof UInt8Array a && type instanceof SmallintType) {
            return shorts(a, rows, count, a::getInt);
        }
        if (array instanceof Int8Array a && type instanceof TinyintType) {
            return bytes(a, rows, count, a::getByte);
        }
        if (array instanceof BoolArray a && type instanceof BooleanType) {
            return bytes(a, rows, count, r -> a.getBoolean(r) ? 1 : 0);
        }
        if (array instanceof VarBinArray a) {
            return varWidth(a, rows, count);
        }
        BlockBuilder out = type.createBlockBuilder(null, count);
        for (int i = 0; i < count; i++) {
            Values.write(type, out, io.vortex4j.reader.array.Values.valueAt(array, row(rows, i)));
        }
        return out.build();
    }

    private static Block longs(Array array, int[] rows, int count, IntToLongFunction get) {
        long[] v = new long[count];
        long[] valid = validity(array, rows, count);
        for (int i = 0; i < count; i++) {
            v[i] = isValid(valid, i) ? get.applyAsLong(row(rows, i)) : 0;
        }
        return new LongArrayBlock(count, Optional.ofNullable(valid), v);
    }

    private static Block ints(Array array, int[] rows, int count, IntUnaryOperator get) {
        int[] v = new int[count];
        long[] valid = validity(array, rows, count);
        for (int i = 0; i < count; i++) {
            v[i] = isValid(valid, i) ? get.applyAsInt(row(rows, i)) : 0;
        }
        return new IntArrayBlock(count, Optional.ofNullable(valid), v);
    }

    private static Block shorts(Array array, int[] rows, int count, IntUnaryOperator get) {
        short[] v = new short[count];
        long[] valid = validity(array, rows, count);
        for (int i = 0; i < count; i++) {
            v[i] = isValid(valid, i) ? (short) get.applyAsInt(row(rows, i)) : 0;
        }
        return new ShortArrayBlock(count, Optional.ofNullable(valid), v);
    }

    private static Block bytes(Array array, int[] rows, int count, IntUnaryOperator get) {
        byte[] v = new byte[count];
        long[] valid = validity(array, rows, count);
        for (int i = 0; i < count; i++) {
            v[i] = isValid(valid, i) ? (byte) get.applyAsInt(row(rows, i)) : 0;
        }
        return new ByteArrayBlock(count, Optional.ofNullable(valid), v);
    }

    private static boolean isValid(long[] valid, int i) {
        return valid == null || Bitmap.isSet(valid, 0, i);
    }

    /** Strings or bytes as one {@link VariableWidthBlock}. */
    static Block varWidth(VarBinArray a, int[] rows, int count) {
        long[] valid = validity(a, rows, count);
        int[] offsets = new int[count + 1];
        DynamicSliceOutput bytes = new DynamicSliceOutput(count * 8);
        for (int i = 0; i < count; i++) {
            if (isValid(valid, i)) {
                bytes.writeBytes(a.getBytes(row(rows, i)));
            }
            offsets[i + 1] = bytes.size();
        }
        return new VariableWidthBlock(count, bytes.slice(), offsets, Optional.ofNullable(valid));
    }

    static int row(int[] rows, int i) {
        return rows == null ? i : rows[i];
    }

    /** Trino's validity bits of the selected rows (set: not null), or null when none is null. */
    private static long[] validity(Array array, int[] rows, int count) {
        if (!array.mayHaveNulls()) {
            return null;
        }
        long[] valid = null;
        for (int i = 0; i < count; i++) {
            if (array.isNull(row(rows, i))) {
                if (valid == null) {
                    valid = Bitmap.allocateWords(count, true);
                }
                Bitmap.clear(valid, 0, i);
            }
        }
        return valid;
    }
}
