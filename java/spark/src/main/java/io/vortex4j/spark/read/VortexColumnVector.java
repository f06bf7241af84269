package io.vortex4j.spark.read;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.array.Array;
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
import java.math.BigDecimal;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column over one of the reader's zero-copy arrays, showing only the selected rows of a
 * filtered chunk ({@code rows}: the chunk rows in order; null for all of them). A dictionary
 * string column builds each entry's {@link UTF8String} once, on first use, never once per row.
 * Valid while the chunk is open: the reader closes it when Spark asks for the next batch.
 */
final class VortexColumnVector extends ColumnVector {
    private final Array array;
    private final int[] rows;
    private final DataType.Kind kind;
    private final long timestampScale;
    /** Per dictionary entry, built on first use (dictionary columns only). */
    private final UTF8String[] entries;
    private int nulls = -1;

    VortexColumnVector(org.apache.spark.sql.types.DataType sparkType, Array array, int[] rows) {
        super(sparkType);
        this.array = array;
        this.rows = rows;
        this.kind = array.type().kind();
        this.timestampScale = kind == DataType.Kind.TIMESTAMP ? microsPer(array.type().unit()) : 1;
        this.entries = array instanceof VarBinDictArray d ? new UTF8String[d.dictionary().length()] : null;
    }

    private static long microsPer(DataType.TimeUnit unit) {
        switch (unit) {
            case SECONDS: return 1_000_000L;
            case MILLISECONDS: return 1_000L;
            default: return 1L;
        }
    }

    private int row(int rowId) {
        return rows == null ? rowId : rows[rowId];
    }

    @Override
    public void close() {
        // The chunk owns the memory; the reader closes it.
    }

    @Override
    public boolean hasNull() {
        return array.mayHaveNulls() && numNulls() > 0;
    }

    @Override
    public int numNulls() {
        if (nulls < 0) {
            int n = 0;
            if (array.mayHaveNulls()) {
                int size = rows == null ? array.length() : rows.length;
                for (int i = 0; i < size; i++) {
                    n += array.isNull(row(i)) ? 1 : 0;
                }
            }
            nulls = n;
        }
        return nulls;
    }

    @Override
    public boolean isNullAt(int rowId) {
        return array.isNull(row(rowId));
    }

    @Override
    public boolean getBoolean(int rowId) {
        return ((BoolArray) array).getBoolean(row(rowId));
    }

    @Override
    public byte getByte(int rowId) {
        return ((Int8Array) array).getByte(row(rowId));
    }

    @Override
    public short getShort(int rowId) {
        int r = row(rowId);
        return kind == DataType.Kind.UINT8 ? (short) ((UInt8Array) array).getInt(r) : ((Int16Array) array).getShort(r);
    }

    @Override
    public int getInt(int rowId) {
        int r = row(rowId);
        return kind == DataType.Kind.UINT16 ? ((UInt16Array) array).getInt(r) : ((Int32Array) array).getInt(r);
    }

    @Override
    public long getLong(int rowId) {
        int r = row(rowId);
        if (kind == DataType.Kind.UINT32) {
            return ((UInt32Array) array).getLong(r);
        }
        long v = ((Int64Array) array).getLong(r);
        return timestampScale == 1 ? v : Math.multiplyExact(v, timestampScale);
    }

    @Override
    public float getFloat(int rowId) {
        return ((Float32Array) array).getFloat(row(rowId));
    }

    @Override
    public double getDouble(int rowId) {
        return ((Float64Array) array).getDouble(row(rowId));
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        int r = row(rowId);
        if (array.isNull(r)) {
            return null;
        }
        BigDecimal v = kind == DataType.Kind.UINT64
                ? new BigDecimal(((UInt64Array) array).getBigInteger(r))
                : ((DecimalArray) array).getBigDecimal(r);
        return Decimal.apply(v, precision, scale);
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        int r = row(rowId);
        if (array instanceof VarBinDictArray d) {
            if (d.isNull(r)) {
                return null;
            }
            int code = d.getCode(r);
            UTF8String s = entries[code];
            if (s == null) {
                s = UTF8String.fromBytes(d.dictionary().getBytes(code));
                entries[code] = s;
            }
            return s;
        }
        byte[] bytes = ((VarBinArray) array).getBytes(r);
        return bytes == null ? null : UTF8String.fromBytes(bytes);
    }

    @Override
    public byte[] getBinary(int rowId) {
        int r = row(rowId);
        return array instanceof VarBinDictArray d ? d.getBytes(r) : ((VarBinArray) array).getBytes(r);
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw new UnsupportedOperationException("vortex columns hold no arrays");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw new UnsupportedOperationException("vortex columns hold no maps");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw new UnsupportedOperationException("vortex columns hold no structs");
    }
}
