package io.vortex4j.reader;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/** Reads one value of any array as a boxed Java value (see {@link DataType} for the mapping). */
public final class Values {
    private Values() {}

    /** The value of row {@code row}, or null when the row is null. */
    public static Object valueAt(Array array, int row) {
        if (array.isNull(row)) {
            return null;
        }
        DataType type = array.type();
        if (array instanceof VarBinDictArray) {
            VarBinDictArray d = (VarBinDictArray) array;
            return type.kind() == DataType.Kind.UTF8 ? d.getString(row) : d.getBytes(row);
        }
        if (array instanceof VarBinArray) {
            VarBinArray v = (VarBinArray) array;
            return type.kind() == DataType.Kind.UTF8 ? v.getString(row) : v.getBytes(row);
        }
        switch (type.kind()) {
            case BOOL:
                return ((BoolArray) array).getBoolean(row);
            case INT8:
                return ((Int8Array) array).getByte(row);
            case INT16:
                return ((Int16Array) array).getShort(row);
            case INT32:
                return ((Int32Array) array).getInt(row);
            case INT64:
                return ((Int64Array) array).getLong(row);
            case UINT8:
                return ((UInt8Array) array).getInt(row);
            case UINT16:
                return ((UInt16Array) array).getInt(row);
            case UINT32:
                return ((UInt32Array) array).getLong(row);
            case UINT64:
                return ((UInt64Array) array).getBigInteger(row);
            case FLOAT16:
            case FLOAT32:
                return ((Float32Array) array).getFloat(row);
            case FLOAT64:
                return ((Float64Array) array).getDouble(row);
            case DECIMAL:
                return ((DecimalArray) array).getBigDecimal(row);
            case DATE:
                return LocalDate.ofEpochDay(((Int32Array) array).getInt(row));
            case TIME:
                return LocalTime.ofNanoOfDay(toNanos(((Int64Array) array).getLong(row), type.unit()));
            case TIMESTAMP:
                return timestamp(((Int64Array) array).getLong(row), type);
            default:
                throw new UnsupportedOperationException("no Java value for dtype " + type);
        }
    }

    private static Object timestamp(long value, DataType type) {
        long seconds;
        long nanos;
        switch (type.unit()) {
            case SECONDS:
                seconds = value;
                nanos = 0;
                break;
            case MILLISECONDS:
                seconds = Math.floorDiv(value, 1_000L);
                nanos = Math.floorMod(value, 1_000L) * 1_000_000L;
                break;
            case MICROSECONDS:
                seconds = Math.floorDiv(value, 1_000_000L);
                nanos = Math.floorMod(value, 1_000_000L) * 1_000L;
                break;
            default:
                seconds = Math.floorDiv(value, 1_000_000_000L);
                nanos = Math.floorMod(value, 1_000_000_000L);
        }
        Instant instant = Instant.ofEpochSecond(seconds, nanos);
        return type.timezone() == null ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : instant;
    }

    private static long toNanos(long value, DataType.TimeUnit unit) {
        switch (unit) {
            case SECONDS: return value * 1_000_000_000L;
            case MILLISECONDS: return value * 1_000_000L;
            case MICROSECONDS: return value * 1_000L;
            default: return value;
        }
    }
}
