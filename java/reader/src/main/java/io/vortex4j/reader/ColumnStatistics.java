package io.vortex4j.reader;

import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.GroupAggregate;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a file's footer holds exactly about one top-level column over all the file's rows: its
 * null count, its smallest and largest non-null values in the form {@link Values#valueAt} gives
 * them ({@code Long} for i64, {@code LocalDate} for a date, ...), and the sum of a numeric
 * column's non-null values. Each is absent where the file does not hold it exactly: a file
 * written without statistics, a string whose min/max the writer truncated (it keeps bounds of at
 * most 64 bytes), a floating-point column holding NaN (vortex's min/max and sum skip NaN), a sum
 * that overflowed, and for time, timestamp and nested columns, whose min/max are not decoded here.
 * See {@link VortexFile#columnStatistics()}.
 */
public final class ColumnStatistics {
    private final String column;
    private final long nullCount;
    private final Object min;
    private final Object max;
    private final Object sum;

    private ColumnStatistics(String column, long nullCount, Object min, Object max, Object sum) {
        this.column = column;
        this.nullCount = nullCount;
        this.min = min;
        this.max = max;
        this.sum = sum;
    }

    /** The column's name. */
    public String column() {
        return column;
    }

    /** The number of null rows, when the file holds it. */
    public OptionalLong nullCount() {
        return nullCount < 0 ? OptionalLong.empty() : OptionalLong.of(nullCount);
    }

    /** The smallest non-null value (empty when unknown, or when every row is null). */
    public Optional<Object> min() {
        return Optional.ofNullable(min);
    }

    /** The largest non-null value (empty when unknown, or when every row is null). */
    public Optional<Object> max() {
        return Optional.ofNullable(max);
    }

    /**
     * The sum of the non-null values of an integer (up to u32), floating-point or decimal column, as
     * {@link GroupAggregate}'s SUM types it: {@code Long}, {@code Double}, {@code BigDecimal} of the
     * column's scale. The writer summed integers and decimals exactly, and floating-point values in
     * its own fixed order (each zone's values in row order, then the zones' sums in order): a
     * row-by-row sum may differ in the last bits. Empty when unknown or for other types (bool,
     * u64, dates, ...); for a column whose every row is null it is the writer's 0, not SQL's NULL.
     */
    public Optional<Object> sum() {
        return Optional.ofNullable(sum);
    }

    /** Decodes {@code Native.columnStatistics}: null counts, then min, max and sum as text. */
    static List<ColumnStatistics> fromNative(Object[] encoded, Schema schema) {
        long[] nulls = (long[]) encoded[0];
        String[] mins = (String[]) encoded[1];
        String[] maxs = (String[]) encoded[2];
        String[] sums = (String[]) encoded[3];
        List<ColumnStatistics> out = new ArrayList<>(nulls.length);
        for (int i = 0; i < nulls.length; i++) {
            DataType type = schema.field(i).type();
            out.add(new ColumnStatistics(schema.field(i).name(), nulls[i], value(mins[i], type), value(maxs[i], type),
                    sum(sums[i], type)));
        }
        return out;
    }

    /** A sum as the native side writes it, typed as {@link #sum()} says. */
    private static Object sum(String text, DataType type) {
        if (text == null) {
            return null;
        }
        DataType.Kind k = type.kind();
        if (k.isInteger() && k != DataType.Kind.UINT64) {
            BigInteger v = new BigInteger(text); // u64 for unsigned columns: may not fit a long
            return v.bitLength() < 64 ? (Object) v.longValue() : null;
        }
        switch (k) {
            case FLOAT16:
            case FLOAT32:
            case FLOAT64: return Double.parseDouble(text);
            case DECIMAL: return new BigDecimal(new BigInteger(text), type.scale());
            default: return null;
        }
    }

    /** A value as the native side writes it (see {@code rust/src/scan/statistics.rs}). */
    private static Object value(String text, DataType type) {
        if (text == null) {
            return null;
        }
        switch (type.kind()) {
            case BOOL: return Boolean.parseBoolean(text);
            case INT8: return Byte.parseByte(text);
            case INT16: return Short.parseShort(text);
            case INT32: return Integer.parseInt(text);
            case INT64: return Long.parseLong(text);
            case UINT8:
            case UINT16: return Integer.parseInt(text);
            case UINT32: return Long.parseLong(text);
            case UINT64: return new BigInteger(text);
            case FLOAT16:
            case FLOAT32: return Float.parseFloat(text);
            case FLOAT64: return Double.parseDouble(text);
            case DECIMAL: return new BigDecimal(new BigInteger(text), type.scale());
            case DATE: return LocalDate.ofEpochDay(Long.parseLong(text));
            case UTF8: return text;
            case BINARY: return HexFormat.of().parseHex(text);
            default: return null;
        }
    }

    @Override
    public String toString() {
        return column + "[nulls=" + (nullCount < 0 ? "?" : nullCount) + ", min=" + (min == null ? "?" : min)
                + ", max=" + (max == null ? "?" : max) + ", sum=" + (sum == null ? "?" : sum) + "]";
    }
}
