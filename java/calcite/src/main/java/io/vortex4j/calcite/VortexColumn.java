package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.BoolArray;
import io.vortex4j.reader.array.DecimalArray;
import io.vortex4j.reader.array.FixedSizeListArray;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int16Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.ListArray;
import io.vortex4j.reader.array.StructArray;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt64Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One column of a Vortex table as Calcite sees it: its SQL type, and how a value of the file is
 * turned into Calcite's internal representation.
 *
 * <table>
 *   <caption>Vortex dtype to SQL type (internal Java value)</caption>
 *   <tr><th>Vortex</th><th>SQL</th><th>value</th></tr>
 *   <tr><td>bool</td><td>BOOLEAN</td><td>Boolean</td></tr>
 *   <tr><td>i8, i16, i32, i64</td><td>TINYINT, SMALLINT, INTEGER, BIGINT</td>
 *       <td>Byte, Short, Integer, Long</td></tr>
 *   <tr><td>u8, u16, u32</td><td>SMALLINT, INTEGER, BIGINT (widened)</td>
 *       <td>Short, Integer, Long</td></tr>
 *   <tr><td>u64</td><td>DECIMAL(20, 0)</td><td>BigDecimal</td></tr>
 *   <tr><td>f16, f32</td><td>REAL</td><td>Float</td></tr>
 *   <tr><td>f64</td><td>DOUBLE</td><td>Double</td></tr>
 *   <tr><td>utf8</td><td>VARCHAR</td><td>String</td></tr>
 *   <tr><td>binary</td><td>VARBINARY</td><td>ByteString</td></tr>
 *   <tr><td>decimal(p, s)</td><td>DECIMAL(p, s)</td><td>BigDecimal</td></tr>
 *   <tr><td>vortex.date</td><td>DATE</td><td>Integer days since 1970-01-01</td></tr>
 *   <tr><td>vortex.time(unit)</td><td>TIME(0) for seconds, TIME(3) otherwise</td>
 *       <td>Integer milliseconds of the day (finer units truncated)</td></tr>
 *   <tr><td>vortex.timestamp(unit[, zone])</td><td>TIMESTAMP(0) for seconds, TIMESTAMP(3)
 *       otherwise</td><td>Long milliseconds since the epoch (finer units floored); with a zone,
 *       the UTC date-time</td></tr>
 *   <tr><td>null</td><td>VARCHAR (always null)</td><td>null</td></tr>
 *   <tr><td>struct</td><td>ROW of the fields' types (field access {@code t.st.x})</td>
 *       <td>Object[] of the fields' values</td></tr>
 *   <tr><td>list, fixed_size_list</td><td>ARRAY of the element type</td><td>List of the
 *       elements' values</td></tr>
 * </table>
 *
 * <p>Columns of dtypes the reader does not read are still columns of the table (type {@code
 * ANY}), so none is silently dropped: a query that reads one fails with an error naming the
 * column and its dtype; queries that do not read it run as usual.
 */
final class VortexColumn {
    /**
     * Position of the column in the dataset's schema (file columns, then partition columns); -1
     * for a struct field read by path.
     */
    final int fileIndex;
    final Field field;
    /** Whether the column comes from Hive-style folders ({@code key=value/}), not from the files. */
    final boolean partition;

    VortexColumn(int fileIndex, Field field) {
        this(fileIndex, field, false);
    }

    VortexColumn(int fileIndex, Field field, boolean partition) {
        this.fileIndex = fileIndex;
        this.field = field;
        this.partition = partition;
    }

    /** Whether the column's values come from the folders of a dataset rather than its files. */
    boolean isPartition() {
        return partition;
    }

    /** Whether this is a struct field read by its dotted path ({@link VortexTable#pathColumn}), not a column. */
    boolean isPath() {
        return fileIndex < 0;
    }

    /** Whether the adapter exposes columns of this type: all are (see the class comment). */
    static boolean isExposed(DataType type) {
        return true;
    }

    String name() {
        return field.name();
    }

    DataType.Kind kind() {
        return field.type().kind();
    }

    DataType type() {
        return field.type();
    }

    /** The SQL type, nullable when the file says the column may hold nulls. */
    RelDataType relType(RelDataTypeFactory tf) {
        return sqlType(field, tf);
    }

    /** The SQL type of {@code field}, nested fields' types included. */
    private static RelDataType sqlType(Field field, RelDataTypeFactory tf) {
        DataType t = field.type();
        RelDataType base;
        switch (t.kind()) {
            case BOOL: base = tf.createSqlType(SqlTypeName.BOOLEAN); break;
            case INT8: base = tf.createSqlType(SqlTypeName.TINYINT); break;
            case INT16:
            case UINT8: base = tf.createSqlType(SqlTypeName.SMALLINT); break;
            case INT32:
            case UINT16: base = tf.createSqlType(SqlTypeName.INTEGER); break;
            case INT64:
            case UINT32: base = tf.createSqlType(SqlTypeName.BIGINT); break;
            case UINT64: base = tf.createSqlType(SqlTypeName.DECIMAL, 20, 0); break;
            case FLOAT16:
            case FLOAT32: base = tf.createSqlType(SqlTypeName.REAL); break;
            case FLOAT64: base = tf.createSqlType(SqlTypeName.DOUBLE); break;
            case UTF8: base = tf.createSqlType(SqlTypeName.VARCHAR); break;
            case BINARY: base = tf.createSqlType(SqlTypeName.VARBINARY); break;
            case DECIMAL: base = tf.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale()); break;
            case DATE: base = tf.createSqlType(SqlTypeName.DATE); break;
            case TIME: base = tf.createSqlType(SqlTypeName.TIME, t.unit() == DataType.TimeUnit.SECONDS ? 0 : 3); break;
            case TIMESTAMP:
                base = tf.createSqlType(SqlTypeName.TIMESTAMP, t.unit() == DataType.TimeUnit.SECONDS ? 0 : 3);
                break;
            case NULL: base = tf.createSqlType(SqlTypeName.VARCHAR); break;
            case STRUCT: {
                List<RelDataType> types = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (Field child : t.children()) {
                    types.add(sqlType(child, tf));
                    names.add(child.name());
                }
                base = tf.createStructType(types, names);
                break;
            }
            case LIST:
            case FIXED_SIZE_LIST: base = tf.createArrayType(sqlType(t.children().get(0), tf), -1); break;
            case UNSUPPORTED: base = tf.createSqlType(SqlTypeName.ANY); break;
            default: throw new IllegalStateException("column " + field + " is not exposed");
        }
        return tf.createTypeWithNullability(base, field.nullable() || t.kind() == DataType.Kind.NULL);
    }

    /** Units per millisecond of a TIME/TIMESTAMP column's raw values, as a signed scale. */
    static long perMilli(DataType.TimeUnit unit) {
        switch (unit) {
            case SECONDS: return -1000; // negative: one raw unit is 1000 milliseconds
            case MILLISECONDS: return 1;
            case MICROSECONDS: return 1000;
            default: return 1_000_000;
        }
    }

    /** Calcite's millisecond value of a raw TIME/TIMESTAMP value: floored for finer units. */
    static long rawToMillis(long raw, DataType.TimeUnit unit) {
        long k = perMilli(unit);
        return k < 0 ? Math.multiplyExact(raw, -k) : Math.floorDiv(raw, k);
    }

    /**
     * The smallest raw value whose millisecond value ({@link #rawToMillis}) is at least {@code
     * millis}; raw values map to milliseconds monotonically, so comparisons of milliseconds become
     * comparisons of raw values.
     */
    static long minRawForMillis(long millis, DataType.TimeUnit unit) {
        long k = perMilli(unit);
        return k < 0 ? Math.floorDiv(millis, -k) + (Math.floorMod(millis, -k) == 0 ? 0 : 1)
                : Math.multiplyExact(millis, k);
    }

    /** A raw TIME/TIMESTAMP value as the java.time literal the reader's predicates take. */
    static Object rawToJavaTime(long raw, DataType type) {
        long nanos;
        long seconds;
        switch (type.unit()) {
            case SECONDS: seconds = raw; nanos = 0; break;
            case MILLISECONDS: seconds = Math.floorDiv(raw, 1000L); nanos = Math.floorMod(raw, 1000L) * 1_000_000L; break;
            case MICROSECONDS: seconds = Math.floorDiv(raw, 1_000_000L); nanos = Math.floorMod(raw, 1_000_000L) * 1000L; break;
            default: seconds = Math.floorDiv(raw, 1_000_000_000L); nanos = Math.floorMod(raw, 1_000_000_000L);
        }
        if (type.kind() == DataType.Kind.TIME) {
            return LocalTime.ofNanoOfDay(Math.multiplyExact(seconds, 1_000_000_000L) + nanos);
        }
        Instant instant = Instant.ofEpochSecond(seconds, nanos);
        return type.timezone() == null ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : instant;
    }

    /**
     * Converts a value as {@link io.vortex4j.reader.array.Values#valueAt} or {@link
     * io.vortex4j.reader.compute.GroupAggregate} return it to Calcite's internal representation.
     */
    Object fromReaderValue(Object v) {
        if (v == null) {
            return null;
        }
        switch (kind()) {
            case UINT8: return ((Number) v).shortValue();
            case UINT16: return ((Number) v).intValue();
            case UINT32: return ((Number) v).longValue();
            case UINT64: return v instanceof BigDecimal ? v : new BigDecimal((BigInteger) v);
            case BINARY: return new ByteString((byte[]) v);
            case DATE: return Math.toIntExact(((LocalDate) v).toEpochDay());
            case TIME: {
                LocalTime t = (LocalTime) v;
                return (int) (t.toNanoOfDay() / 1_000_000L);
            }
            case TIMESTAMP: {
                Instant i = v instanceof Instant ? (Instant) v : ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
                return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1000L), i.getNano() / 1_000_000);
            }
            default: return v;
        }
    }

    /**
     * Reads row values of this column's arrays in Calcite's representation. Throws {@link
     * UnsupportedOperationException} naming the column and dtype for a dtype the reader does not
     * read: the query reads it.
     */
    ValueReader reader() {
        return reader(field.name(), field.type());
    }

    /** The reader of values of type {@code t} ({@code name} for errors), nested ones included. */
    private static ValueReader reader(String name, DataType t) {
        switch (t.kind()) {
            case UNSUPPORTED:
                throw new UnsupportedOperationException("column '" + name + "' has dtype " + t
                        + ", which vortex4j does not read");
            case STRUCT: {
                List<Field> children = t.children();
                ValueReader[] fields = new ValueReader[children.size()];
                for (int f = 0; f < fields.length; f++) {
                    fields[f] = reader(name + "." + children.get(f).name(), children.get(f).type());
                }
                return (a, i) -> {
                    if (a.isNull(i)) {
                        return null;
                    }
                    StructArray st = (StructArray) a;
                    Object[] row = new Object[fields.length];
                    for (int f = 0; f < fields.length; f++) {
                        row[f] = fields[f].read(st.field(f), i);
                    }
                    return row;
                };
            }
            case LIST: {
                ValueReader element = reader(name + "[]", t.children().get(0).type());
                return (a, i) -> {
                    if (a.isNull(i)) {
                        return null;
                    }
                    ListArray list = (ListArray) a;
                    return elements(element, list.elements(), list.offset(i), list.size(i));
                };
            }
            case FIXED_SIZE_LIST: {
                ValueReader element = reader(name + "[]", t.children().get(0).type());
                int size = t.listSize();
                return (a, i) -> a.isNull(i) ? null
                        : elements(element, ((FixedSizeListArray) a).elements(), i * size, size);
            }
            case BOOL: return (a, i) -> a.isNull(i) ? null : ((BoolArray) a).getBoolean(i);
            case INT8: return (a, i) -> a.isNull(i) ? null : ((Int8Array) a).getByte(i);
            case INT16: return (a, i) -> a.isNull(i) ? null : ((Int16Array) a).getShort(i);
            case INT32: return (a, i) -> a.isNull(i) ? null : ((Int32Array) a).getInt(i);
            case INT64: return (a, i) -> a.isNull(i) ? null : ((Int64Array) a).getLong(i);
            case UINT8: return (a, i) -> a.isNull(i) ? null : (short) ((UInt8Array) a).getInt(i);
            case UINT16: return (a, i) -> a.isNull(i) ? null : ((UInt16Array) a).getInt(i);
            case UINT32: return (a, i) -> a.isNull(i) ? null : ((UInt32Array) a).getLong(i);
            case UINT64: return (a, i) -> a.isNull(i) ? null : new BigDecimal(((UInt64Array) a).getBigInteger(i));
            case FLOAT16:
            case FLOAT32: return (a, i) -> a.isNull(i) ? null : ((Float32Array) a).getFloat(i);
            case FLOAT64: return (a, i) -> a.isNull(i) ? null : ((Float64Array) a).getDouble(i);
            case UTF8: return (a, i) -> a instanceof VarBinDictArray d ? d.getString(i) : ((VarBinArray) a).getString(i);
            case BINARY: return (a, i) -> {
                byte[] b = a instanceof VarBinDictArray d ? d.getBytes(i) : ((VarBinArray) a).getBytes(i);
                return b == null ? null : new ByteString(b);
            };
            case DECIMAL: return (a, i) -> ((DecimalArray) a).getBigDecimal(i);
            case DATE: return (a, i) -> a.isNull(i) ? null : ((Int32Array) a).getInt(i);
            case TIME: {
                DataType.TimeUnit unit = t.unit();
                return (a, i) -> a.isNull(i) ? null : (int) rawToMillis(((Int64Array) a).getLong(i), unit);
            }
            case TIMESTAMP: {
                DataType.TimeUnit unit = t.unit();
                return (a, i) -> a.isNull(i) ? null : rawToMillis(((Int64Array) a).getLong(i), unit);
            }
            case NULL: return (a, i) -> null;
            default: throw new IllegalStateException("column " + name + " of dtype " + t + " is not exposed");
        }
    }

    /** Elements {@code first .. first + count - 1} of {@code elements}: an ARRAY value. */
    private static List<Object> elements(ValueReader element, Array elements, int first, int count) {
        Object[] values = new Object[count];
        for (int j = 0; j < count; j++) {
            values[j] = element.read(elements, first + j);
        }
        return Arrays.asList(values);
    }

    /** Reads one row of an array as Calcite's internal value (null for a null row). */
    @FunctionalInterface
    interface ValueReader {
        Object read(Array array, int row);
    }

    @Override
    public String toString() {
        return field.toString();
    }
}
