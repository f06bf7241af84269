package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one value of any array as a boxed Java value (see {@link DataType} for the mapping): a
 * struct row is an unmodifiable {@code Map} of field name to value in field order, a list row an
 * unmodifiable {@code List} (nulls inside both allowed).
 */
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
        if (array instanceof StructArray s) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (int i = 0; i < s.fields().size(); i++) {
                fields.put(type.children().get(i).name(), valueAt(s.field(i), row));
            }
            return Collections.unmodifiableMap(fields);
        }
        if (array instanceof ListArray l) {
            return elements(l.elements(), l.offset(row), l.offset(row + 1));
        }
        if (array instanceof FixedSizeListArray l) {
            return elements(l.elements(), row * l.listSize(), (row + 1) * l.listSize());
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

    private static List<Object> elements(Array elements, int from, int to) {
        List<Object> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            out.add(valueAt(elements, i));
        }
        return Collections.unmodifiableList(out);
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
