package io.vortex4j.reader;

import io.vortex4j.reader.array.BoolArray;
import io.vortex4j.reader.array.DecimalArray;
import io.vortex4j.reader.array.FixedSizeListArray;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.ListArray;
import io.vortex4j.reader.array.NullArray;
import io.vortex4j.reader.array.StructArray;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt64Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;

import java.util.List;
import java.util.Objects;

/**
 * The logical type of a column, as Java sees it.
 *
 * <p>Mapping of Vortex dtypes to Java values (what {@link Values#valueAt} returns):
 *
 * <table>
 *   <caption>Vortex dtype to Java</caption>
 *   <tr><th>Vortex</th><th>kind</th><th>array class</th><th>boxed value</th></tr>
 *   <tr><td>bool</td><td>BOOL</td><td>{@link BoolArray}</td><td>Boolean</td></tr>
 *   <tr><td>i8/i16/i32/i64</td><td>INT8..INT64</td><td>{@link Int8Array}..{@link Int64Array}</td>
 *       <td>Byte/Short/Integer/Long</td></tr>
 *   <tr><td>u8/u16</td><td>UINT8/UINT16</td><td>{@link UInt8Array}/{@link UInt16Array}</td>
 *       <td>Integer (widened, never negative)</td></tr>
 *   <tr><td>u32</td><td>UINT32</td><td>{@link UInt32Array}</td><td>Long (widened)</td></tr>
 *   <tr><td>u64</td><td>UINT64</td><td>{@link UInt64Array}</td><td>BigInteger (exact)</td></tr>
 *   <tr><td>f16/f32</td><td>FLOAT32</td><td>{@link Float32Array}</td><td>Float (f16 widened)</td></tr>
 *   <tr><td>f64</td><td>FLOAT64</td><td>{@link Float64Array}</td><td>Double</td></tr>
 *   <tr><td>utf8</td><td>UTF8</td><td>{@link VarBinArray} or {@link VarBinDictArray}</td>
 *       <td>String</td></tr>
 *   <tr><td>binary</td><td>BINARY</td><td>{@link VarBinArray} or {@link VarBinDictArray}</td>
 *       <td>byte[]</td></tr>
 *   <tr><td>decimal(p, s)</td><td>DECIMAL</td><td>{@link DecimalArray}</td><td>BigDecimal</td></tr>
 *   <tr><td>vortex.date</td><td>DATE</td><td>{@link Int32Array} (days since 1970-01-01)</td>
 *       <td>LocalDate</td></tr>
 *   <tr><td>vortex.time</td><td>TIME</td><td>{@link Int64Array} (in {@link #unit()})</td>
 *       <td>LocalTime</td></tr>
 *   <tr><td>vortex.timestamp</td><td>TIMESTAMP</td><td>{@link Int64Array} (in {@link #unit()}
 *       since the epoch)</td><td>Instant with a time zone, LocalDateTime without</td></tr>
 *   <tr><td>null</td><td>NULL</td><td>{@link NullArray}</td><td>null</td></tr>
 *   <tr><td>struct</td><td>STRUCT ({@link #children()} = the fields)</td><td>{@link StructArray}</td>
 *       <td>Map of field name to value, in field order</td></tr>
 *   <tr><td>list</td><td>LIST ({@link #children()} = the element)</td><td>{@link ListArray}</td>
 *       <td>List</td></tr>
 *   <tr><td>fixed-size list</td><td>FIXED_SIZE_LIST ({@link #listSize()})</td>
 *       <td>{@link FixedSizeListArray}</td><td>List</td></tr>
 * </table>
 *
 * <p>Map, union, variant, decimals wider than 38 digits, other extension dtypes, and nested
 * dtypes holding one of them are {@code UNSUPPORTED}: they appear in the schema, and reading such
 * a column throws {@link UnsupportedOperationException} naming the column and dtype.
 */
public final class DataType {
    /** Type kinds; the numeric codes are shared with the native library. */
    public enum Kind {
        NULL(0), BOOL(1), INT8(2), INT16(3), INT32(4), INT64(5), UINT8(6), UINT16(7), UINT32(8),
        UINT64(9), FLOAT16(10), FLOAT32(11), FLOAT64(12), UTF8(13), BINARY(14), DECIMAL(15),
        DATE(16), TIME(17), TIMESTAMP(18), STRUCT(19), LIST(20), FIXED_SIZE_LIST(21), UNSUPPORTED(99);

        final int code;

        Kind(int code) {
            this.code = code;
        }

        /** The code the native library uses for this kind. */
        public int code() {
            return code;
        }

        static Kind ofCode(int code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown type code " + code);
        }

        /** True for the integer kinds, signed or not. */
        public boolean isInteger() {
            return code >= INT8.code && code <= UINT64.code;
        }

        /** True for struct, list and fixed-size list. */
        public boolean isNested() {
            return this == STRUCT || this == LIST || this == FIXED_SIZE_LIST;
        }

        /** True for integer and floating-point kinds. */
        public boolean isNumeric() {
            return code >= INT8.code && code <= FLOAT64.code;
        }
    }

    /** Units of TIME and TIMESTAMP values. */
    public enum TimeUnit {
        SECONDS, MILLISECONDS, MICROSECONDS, NANOSECONDS
    }

    public static final DataType NULL = new DataType(Kind.NULL, 0, 0, null, "null");
    public static final DataType BOOL = new DataType(Kind.BOOL, 0, 0, null, "bool");
    public static final DataType INT8 = new DataType(Kind.INT8, 0, 0, null, "i8");
    public static final DataType INT16 = new DataType(Kind.INT16, 0, 0, null, "i16");
    public static final DataType INT32 = new DataType(Kind.INT32, 0, 0, null, "i32");
    public static final DataType INT64 = new DataType(Kind.INT64, 0, 0, null, "i64");
    public static final DataType UINT8 = new DataType(Kind.UINT8, 0, 0, null, "u8");
    public static final DataType UINT16 = new DataType(Kind.UINT16, 0, 0, null, "u16");
    public static final DataType UINT32 = new DataType(Kind.UINT32, 0, 0, null, "u32");
    public static final DataType UINT64 = new DataType(Kind.UINT64, 0, 0, null, "u64");
    public static final DataType FLOAT32 = new DataType(Kind.FLOAT32, 0, 0, null, "f32");
    public static final DataType FLOAT64 = new DataType(Kind.FLOAT64, 0, 0, null, "f64");
    public static final DataType UTF8 = new DataType(Kind.UTF8, 0, 0, null, "utf8");
    public static final DataType BINARY = new DataType(Kind.BINARY, 0, 0, null, "binary");
    public static final DataType DATE = new DataType(Kind.DATE, 0, 0, null, "date");

    private final Kind kind;
    private final int param1;
    private final int param2;
    private final String timezone;
    private final String text;
    private final List<Field> children;

    private DataType(Kind kind, int param1, int param2, String timezone, String text) {
        this(kind, param1, param2, timezone, text, List.of());
    }

    private DataType(Kind kind, int param1, int param2, String timezone, String text, List<Field> children) {
        this.kind = kind;
        this.param1 = param1;
        this.param2 = param2;
        this.timezone = timezone;
        this.text = text;
        this.children = List.copyOf(children);
    }

    /** A struct of the given fields (names distinct). */
    public static DataType struct(List<Field> fields) {
        new Schema(fields); // checks the names
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < fields.size(); i++) {
            b.append(i > 0 ? ", " : "").append(fields.get(i).name()).append('=').append(fields.get(i).type())
                    .append(fields.get(i).nullable() ? "?" : "");
        }
        return new DataType(Kind.STRUCT, 0, 0, null, b.append('}').toString(), fields);
    }

    /** A list of elements of type {@code element}, null elements allowed when {@code nullable}. */
    public static DataType list(DataType element, boolean nullable) {
        return new DataType(Kind.LIST, 0, 0, null, "list(" + element + (nullable ? "?" : "") + ")",
                List.of(new Field(ELEMENT, element, nullable)));
    }

    /** Lists of exactly {@code size} elements of type {@code element}. */
    public static DataType fixedSizeList(DataType element, boolean nullable, int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("fixed-size list of " + size + " elements");
        }
        return new DataType(Kind.FIXED_SIZE_LIST, size, 0, null,
                "fixed_size_list(" + element + (nullable ? "?" : "") + ")[" + size + "]",
                List.of(new Field(ELEMENT, element, nullable)));
    }

    /** The name of a list's element field. */
    public static final String ELEMENT = "element";

    /** A decimal with {@code precision} digits, {@code scale} of them after the point. */
    public static DataType decimal(int precision, int scale) {
        if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
            throw new IllegalArgumentException(
                    "decimal(" + precision + ", " + scale + "): precision must be 1..38, scale 0..precision");
        }
        return new DataType(Kind.DECIMAL, precision, scale, null, "decimal(" + precision + "," + scale + ")");
    }

    /** A time of day in {@code unit} since midnight. */
    public static DataType time(TimeUnit unit) {
        return new DataType(Kind.TIME, unit.ordinal(), 0, null, "time(" + unitName(unit) + ")");
    }

    /** A timestamp in {@code unit} since the epoch; {@code timezone} may be null (local time). */
    public static DataType timestamp(TimeUnit unit, String timezone) {
        return new DataType(Kind.TIMESTAMP, unit.ordinal(), 0, timezone,
                "timestamp(" + unitName(unit) + (timezone == null ? "" : ", " + timezone) + ")");
    }

    static DataType fromNative(int code, int param1, int param2, String timezone, String text, List<Field> children) {
        Kind kind = Kind.ofCode(code);
        switch (kind) {
            case STRUCT:
            case LIST:
                return new DataType(kind, 0, 0, null, text, children);
            case FIXED_SIZE_LIST:
                return new DataType(kind, param1, 0, null, text, children);
            case DECIMAL:
                return new DataType(kind, param1, param2, null, text);
            case TIME:
            case TIMESTAMP:
                return new DataType(kind, param1, 0, timezone, text);
            case UNSUPPORTED:
                return new DataType(kind, 0, 0, null, text);
            case FLOAT16:
                return new DataType(Kind.FLOAT32, 0, 0, null, text);
            default:
                return new DataType(kind, 0, 0, null, text);
        }
    }

    private static String unitName(TimeUnit unit) {
        switch (unit) {
            case SECONDS: return "s";
            case MILLISECONDS: return "ms";
            case MICROSECONDS: return "us";
            default: return "ns";
        }
    }

    /** The kind of type. */
    public Kind kind() {
        return kind;
    }

    /** Decimal precision (digits); 0 for other kinds. */
    public int precision() {
        return kind == Kind.DECIMAL ? param1 : 0;
    }

    /** Decimal scale (digits after the point); 0 for other kinds. */
    public int scale() {
        return kind == Kind.DECIMAL ? param2 : 0;
    }

    /** The unit of TIME and TIMESTAMP values; null for other kinds. */
    public TimeUnit unit() {
        return kind == Kind.TIME || kind == Kind.TIMESTAMP ? TimeUnit.values()[param1] : null;
    }

    /** The fields of a STRUCT, the one element field of a list; empty for other kinds. */
    public List<Field> children() {
        return children;
    }

    /** The element type of a LIST or FIXED_SIZE_LIST; null for other kinds. */
    public Field element() {
        return kind == Kind.LIST || kind == Kind.FIXED_SIZE_LIST ? children.get(0) : null;
    }

    /** The elements per row of a FIXED_SIZE_LIST; 0 for other kinds. */
    public int listSize() {
        return kind == Kind.FIXED_SIZE_LIST ? param1 : 0;
    }

    /** The time zone of a TIMESTAMP, or null (local date-time, or another kind). */
    public String timezone() {
        return timezone;
    }

    int param1() {
        return param1;
    }

    int param2() {
        return param2;
    }

    /** True when reading columns of this type is supported. */
    public boolean isSupported() {
        return kind != Kind.UNSUPPORTED;
    }

    /** The Vortex dtype as text, e.g. {@code utf8} or {@code decimal(10,2)}. */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DataType)) {
            return false;
        }
        DataType other = (DataType) o;
        return kind == other.kind && param1 == other.param1 && param2 == other.param2
                && Objects.equals(timezone, other.timezone) && children.equals(other.children)
                && (kind != Kind.UNSUPPORTED || text.equals(other.text));
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, param1, param2, timezone, children);
    }
}
