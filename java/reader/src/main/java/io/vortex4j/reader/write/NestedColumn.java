package io.vortex4j.reader.write;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Values;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A column's Java values laid out for the native writer, nested ones included: per column (or
 * struct field, or list element column) a node {@code {values, offsets, validity}} as {@link
 * Batch} holds for flat columns; a nested column's {@code values} are its children's nodes (a
 * struct's fields in order, a list's one element column), a list's {@code offsets} its {@code
 * rows + 1} element offsets.
 *
 * <p>Values are those {@link Values#valueAt} returns: a struct row a {@code Map} of field name
 * to value (fields left out are null) or an {@code Object[]} of the fields in order, a list row
 * a {@code List} (a fixed-size list's of exactly its size), leaves as {@link #leaf} takes them.
 */
final class NestedColumn {
    private NestedColumn() {}

    /** The node of {@code values} (one per row, null for a null row) of {@code field}. */
    static Object[] node(Field field, List<?> values) {
        DataType t = field.type();
        int rows = values.size();
        switch (t.kind()) {
            case STRUCT: {
                List<Field> fields = t.children();
                List<List<Object>> children = new ArrayList<>();
                for (int f = 0; f < fields.size(); f++) {
                    children.add(new ArrayList<>(rows));
                }
                boolean[] valid = new boolean[rows];
                for (int r = 0; r < rows; r++) {
                    Object v = values.get(r);
                    valid[r] = v != null;
                    for (int f = 0; f < fields.size(); f++) {
                        children.get(f).add(v == null ? null : fieldValue(field, v, f));
                    }
                }
                Object[] nodes = new Object[fields.size()];
                for (int f = 0; f < nodes.length; f++) {
                    nodes[f] = node(fields.get(f), children.get(f));
                }
                return new Object[] {nodes, null, valid};
            }
            case LIST:
            case FIXED_SIZE_LIST: {
                boolean fixed = t.kind() == DataType.Kind.FIXED_SIZE_LIST;
                List<Object> elements = new ArrayList<>();
                int[] offsets = new int[rows + 1];
                boolean[] valid = new boolean[rows];
                for (int r = 0; r < rows; r++) {
                    Object v = values.get(r);
                    valid[r] = v != null;
                    if (v == null) {
                        if (fixed) {
                            elements.addAll(java.util.Collections.nCopies(t.listSize(), null));
                        }
                    } else if (!(v instanceof List<?> list)) {
                        throw new IllegalArgumentException("column '" + field.name() + "' takes Lists, not "
                                + v.getClass().getName());
                    } else {
                        if (fixed && list.size() != t.listSize()) {
                            throw new IllegalArgumentException("column '" + field.name() + "' holds lists of "
                                    + t.listSize() + " elements, not " + list.size());
                        }
                        elements.addAll(list);
                    }
                    offsets[r + 1] = elements.size();
                }
                Field element = t.children().get(0);
                Object[] child = node(new Field(field.name() + "[]", element.type(), element.nullable()), elements);
                return new Object[] {new Object[] {child}, fixed ? null : offsets, valid};
            }
            default: {
                // Nulls pass here even in a non-nullable field: Arrow rejects those its parent does not cover.
                Field nullable = new Field(field.name(), t, true);
                boolean[] valid = null;
                if (values.contains(null)) {
                    valid = new boolean[rows];
                    for (int r = 0; r < rows; r++) {
                        valid[r] = values.get(r) != null;
                    }
                }
                Batch b = new Batch(Schema.of(nullable), rows).set(field.name(), leaf(field, values), valid);
                return new Object[] {b.values[0], b.offsets[0], b.validity[0]};
            }
        }
    }

    private static Object fieldValue(Field struct, Object row, int f) {
        List<Field> fields = struct.type().children();
        if (row instanceof Object[] a) {
            if (a.length != fields.size()) {
                throw new IllegalArgumentException("column '" + struct.name() + "' has " + fields.size()
                        + " fields, not " + a.length);
            }
            return a[f];
        }
        if (!(row instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("column '" + struct.name() + "' takes Maps or Object[], not "
                    + row.getClass().getName());
        }
        if (f == 0) {
            for (Object k : m.keySet()) {
                if (fields.stream().noneMatch(x -> x.name().equals(k))) {
                    throw new IllegalArgumentException("column '" + struct.name() + "' has no field '" + k + "'");
                }
            }
        }
        return m.get(fields.get(f).name());
    }

    /**
     * The Java array {@link Batch#set} takes for a flat column of {@code field}'s type, from
     * values: numbers for integers and floats (unsigned as their bits, u64 also a BigInteger),
     * Boolean, String, byte[], BigDecimal, LocalDate (or Integer days), LocalTime / Instant /
     * LocalDateTime (UTC) or a Long in the type's unit for times and timestamps.
     */
    static Object leaf(Field field, List<?> values) {
        int n = values.size();
        DataType t = field.type();
        switch (t.kind()) {
            case NULL: return null;
            case BOOL: {
                boolean[] out = new boolean[n];
                for (int r = 0; r < n; r++) {
                    out[r] = values.get(r) != null && (Boolean) values.get(r);
                }
                return out;
            }
            case UTF8: return values.toArray(new String[0]);
            case BINARY: return values.toArray(new byte[0][]);
            case DECIMAL: return values.toArray(new BigDecimal[0]);
            case DATE: {
                LocalDate[] out = new LocalDate[n];
                for (int r = 0; r < n; r++) {
                    Object v = values.get(r);
                    out[r] = v == null ? null : v instanceof LocalDate d ? d : LocalDate.ofEpochDay(((Number) v).longValue());
                }
                return out;
            }
            default:
                break;
        }
        Object out = java.lang.reflect.Array.newInstance(primitive(t.kind()), n);
        for (int r = 0; r < n; r++) {
            Object v = values.get(r);
            if (v == null) {
                continue;
            }
            switch (t.kind()) {
                case INT8: case UINT8: ((byte[]) out)[r] = (byte) ((Number) v).intValue(); break;
                case INT16: case UINT16: ((short[]) out)[r] = (short) ((Number) v).intValue(); break;
                case INT32: case UINT32: ((int[]) out)[r] = (int) ((Number) v).longValue(); break;
                case INT64: case UINT64: ((long[]) out)[r] = ((Number) v).longValue(); break;
                case FLOAT16: case FLOAT32: ((float[]) out)[r] = ((Number) v).floatValue(); break;
                case FLOAT64: ((double[]) out)[r] = ((Number) v).doubleValue(); break;
                case TIME: case TIMESTAMP: ((long[]) out)[r] = raw(v, t.unit()); break;
                default: throw new UnsupportedOperationException("writing " + t + " values is not supported");
            }
        }
        return out;
    }

    private static Class<?> primitive(DataType.Kind kind) {
        switch (kind) {
            case INT8: case UINT8: return byte.class;
            case INT16: case UINT16: return short.class;
            case INT32: case UINT32: return int.class;
            case FLOAT16: case FLOAT32: return float.class;
            case FLOAT64: return double.class;
            case BOOL: return boolean.class;
            default: return long.class;
        }
    }

    /** A time or timestamp value as a count of {@code unit}s. */
    private static long raw(Object v, DataType.TimeUnit unit) {
        long perSecond = unit == DataType.TimeUnit.SECONDS ? 1 : unit == DataType.TimeUnit.MILLISECONDS ? 1_000
                : unit == DataType.TimeUnit.MICROSECONDS ? 1_000_000 : 1_000_000_000;
        long nanosPerUnit = 1_000_000_000L / perSecond;
        if (v instanceof LocalTime t) {
            return t.toNanoOfDay() / nanosPerUnit;
        }
        Instant i = v instanceof LocalDateTime d ? d.toInstant(ZoneOffset.UTC) : v instanceof Instant x ? x : null;
        if (i != null) {
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), perSecond), i.getNano() / nanosPerUnit);
        }
        return ((Number) v).longValue();
    }
}
