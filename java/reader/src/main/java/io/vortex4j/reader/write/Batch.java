package io.vortex4j.reader.write;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Values;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Rows to append to a {@link VortexWriter}: one value array per column of the writer's schema.
 *
 * <p>Each column takes the Java array matching its type (see {@link #set}); nulls are given
 * either as a validity array ({@code true} = valid) or as null elements of an object array.
 */
public final class Batch {
    private final Schema schema;
    private final int rows;
    final Object[] values;
    final Object[] offsets;
    final Object[] validity;

    /** An empty batch of {@code rows} rows; every column must be set before writing. */
    public Batch(Schema schema, int rows) {
        if (rows < 0) {
            throw new IllegalArgumentException("negative row count " + rows);
        }
        this.schema = Objects.requireNonNull(schema, "schema");
        this.rows = rows;
        this.values = new Object[schema.size()];
        this.offsets = new Object[schema.size()];
        this.validity = new Object[schema.size()];
    }

    /** The number of rows. */
    public int rows() {
        return rows;
    }

    /** The schema the batch follows. */
    public Schema schema() {
        return schema;
    }

    /**
     * Sets a column. {@code data} is, by type: bool {@code boolean[]}; i8/u8 {@code byte[]};
     * i16/u16 {@code short[]}; i32/u32 {@code int[]}; i64/u64 {@code long[]}; f32 {@code float[]};
     * f64 {@code double[]}; utf8 {@code String[]}; binary {@code byte[][]}; decimal {@code
     * BigDecimal[]}; date {@code LocalDate[]} or {@code int[]} days; time and timestamp {@code
     * long[]} in the type's unit; null type: null. Unsigned values are given as the same bits in
     * the signed type. Nested columns (struct, list, fixed-size list, nested to any depth) take an
     * {@code Object[]} or {@code List} of row values as {@link Values#valueAt} returns them: a
     * struct row a {@code Map} of field name to value (or an {@code Object[]} of the fields in
     * order), a list row a {@code List} of elements, null for a null row, nulls inside allowed
     * where the type allows them (leaf values as numbers, Boolean, String, byte[], BigDecimal,
     * LocalDate, LocalTime, Instant). {@code valid} (may be null) marks valid rows; null elements
     * of an object array are nulls too.
     */
    public Batch set(String column, Object data, boolean[] valid) {
        int i = schema.indexOf(column);
        if (i < 0) {
            schema.field(column);
        }
        Field field = schema.field(i);
        if (valid != null && valid.length != rows) {
            throw new IllegalArgumentException(column + ": " + valid.length + " validity flags for " + rows + " rows");
        }
        boolean[] v = valid == null ? null : valid.clone();
        switch (field.type().kind()) {
            case NULL:
                values[i] = null;
                break;
            case UTF8:
                v = strings(i, (String[]) data, v);
                break;
            case BINARY:
                v = binaries(i, (byte[][]) data, v);
                break;
            case DECIMAL:
                v = decimals(i, field, (BigDecimal[]) data, v);
                break;
            case STRUCT:
            case LIST:
            case FIXED_SIZE_LIST: {
                Object[] node = NestedColumn.node(field, nestedRows(column, data, v));
                values[i] = node[0];
                offsets[i] = node[1];
                v = null;
                for (boolean b : (boolean[]) node[2]) {
                    if (!b) {
                        v = (boolean[]) node[2];
                        break;
                    }
                }
                break;
            }
            case DATE:
                if (data instanceof LocalDate[]) {
                    LocalDate[] dates = (LocalDate[]) data;
                    checkLength(column, dates.length);
                    int[] days = new int[rows];
                    for (int r = 0; r < rows; r++) {
                        if (dates[r] == null) {
                            v = markNull(v, r);
                        } else {
                            days[r] = Math.toIntExact(dates[r].toEpochDay());
                        }
                    }
                    values[i] = days;
                    break;
                }
                values[i] = primitive(column, data, int[].class);
                break;
            default:
                values[i] = primitive(column, data, expectedArray(field.type().kind()));
        }
        if (v != null && !field.nullable()) {
            for (boolean b : v) {
                if (!b) {
                    throw new IllegalArgumentException("column '" + column + "' is not nullable but has nulls");
                }
            }
        }
        validity[i] = v;
        return this;
    }

    /** The rows of a nested column's {@code data} ({@code Object[]} or {@code List}), those {@code valid} marks invalid null. */
    private List<Object> nestedRows(String column, Object data, boolean[] valid) {
        List<Object> out;
        if (data instanceof Object[] a) {
            out = new ArrayList<>(Arrays.asList(a));
        } else if (data instanceof List<?> l) {
            out = new ArrayList<>(l);
        } else {
            throw new IllegalArgumentException("column '" + column + "' takes Object[] or a List of rows, not "
                    + (data == null ? "null" : data.getClass().getSimpleName()));
        }
        checkLength(column, out.size());
        for (int r = 0; valid != null && r < rows; r++) {
            if (!valid[r]) {
                out.set(r, null);
            }
        }
        return out;
    }

    /** Sets a column without nulls (or with nulls as null elements). */
    public Batch set(String column, Object data) {
        return set(column, data, null);
    }

    private static Class<?> expectedArray(DataType.Kind kind) {
        switch (kind) {
            case BOOL: return boolean[].class;
            case INT8: case UINT8: return byte[].class;
            case INT16: case UINT16: return short[].class;
            case INT32: case UINT32: return int[].class;
            case INT64: case UINT64: case TIME: case TIMESTAMP: return long[].class;
            case FLOAT16: case FLOAT32: return float[].class;
            case FLOAT64: return double[].class;
            default: throw new UnsupportedOperationException("writing " + kind + " columns is not supported");
        }
    }

    private Object primitive(String column, Object data, Class<?> expected) {
        if (data == null || data.getClass() != expected) {
            throw new IllegalArgumentException("column '" + column + "' takes " + expected.getSimpleName()
                    + ", not " + (data == null ? "null" : data.getClass().getSimpleName()));
        }
        checkLength(column, java.lang.reflect.Array.getLength(data));
        return data;
    }

    private boolean[] strings(int i, String[] data, boolean[] v) {
        byte[][] bytes = new byte[data.length][];
        for (int r = 0; r < data.length; r++) {
            bytes[r] = data[r] == null ? null : data[r].getBytes(StandardCharsets.UTF_8);
        }
        return binaries(i, bytes, v);
    }

    private boolean[] binaries(int i, byte[][] data, boolean[] v) {
        checkLength(schema.field(i).name(), data.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] offs = new int[rows + 1];
        for (int r = 0; r < rows; r++) {
            if (data[r] == null) {
                v = markNull(v, r);
            } else {
                out.write(data[r], 0, data[r].length);
            }
            offs[r + 1] = out.size();
        }
        values[i] = out.toByteArray();
        offsets[i] = offs;
        return v;
    }

    private boolean[] decimals(int i, Field field, BigDecimal[] data, boolean[] v) {
        checkLength(field.name(), data.length);
        byte[] out = new byte[16 * rows];
        for (int r = 0; r < rows; r++) {
            if (data[r] == null) {
                v = markNull(v, r);
                continue;
            }
            BigInteger unscaled;
            try {
                unscaled = data[r].setScale(field.type().scale(), RoundingMode.UNNECESSARY).unscaledValue();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("column '" + field.name() + "': " + data[r]
                        + " has more than " + field.type().scale() + " digits after the point");
            }
            if (unscaled.abs().toString().length() > field.type().precision()) {
                throw new IllegalArgumentException("column '" + field.name() + "': " + data[r]
                        + " does not fit " + field.type());
            }
            byte[] be = unscaled.toByteArray();
            byte pad = (byte) (unscaled.signum() < 0 ? 0xFF : 0);
            for (int b = 0; b < 16; b++) {
                int src = be.length - 1 - b;
                out[16 * r + b] = src >= 0 ? be[src] : pad;
            }
        }
        values[i] = out;
        return v;
    }

    private boolean[] markNull(boolean[] v, int row) {
        if (v == null) {
            v = new boolean[rows];
            java.util.Arrays.fill(v, true);
        }
        v[row] = false;
        return v;
    }

    private void checkLength(String column, int length) {
        if (length != rows) {
            throw new IllegalArgumentException("column '" + column + "' has " + length + " values for " + rows + " rows");
        }
    }

    /** Throws unless every column is set. */
    void checkComplete() {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null && schema.field(i).type().kind() != DataType.Kind.NULL) {
                throw new IllegalStateException("column '" + schema.field(i).name() + "' of the batch is not set");
            }
        }
    }
}
