package io.vortex4j.reader.oracle;

import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.predicate.Literals;
import io.vortex4j.reader.predicate.Normalizer;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.RowFilter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The tests' own evaluation of a {@link Predicate} on one row, in SQL's three-valued logic,
 * written from the semantics in {@code docs/predicate-encoding.md} without using the library's
 * evaluators ({@code RowFilter}, {@code Literals}, {@code Normalizer}).
 *
 * <p>Results are {@link Boolean#TRUE}, {@link Boolean#FALSE} or null (unknown). Numbers compare
 * exactly by mathematical value whatever their Java class; strings by their UTF-8 bytes,
 * unsigned; binary values by their bytes, unsigned.
 */
public final class Sql3 {
    private Sql3() {}

    /** True when the row is selected (the predicate is TRUE, not FALSE or unknown). */
    public static boolean selects(Predicate p, Function<String, Object> row) {
        return eval(p, row) == Boolean.TRUE;
    }

    /** The three-valued result of {@code p} on the row whose column values {@code row} gives. */
    public static Boolean eval(Predicate p, Function<String, Object> row) {
        if (p instanceof Predicate.And a) {
            boolean unknown = false;
            for (Predicate c : a.children()) {
                Boolean v = eval(c, row);
                if (v == Boolean.FALSE) {
                    return false;
                }
                unknown |= v == null;
            }
            return unknown ? null : Boolean.TRUE;
        }
        if (p instanceof Predicate.Or o) {
            boolean unknown = false;
            for (Predicate c : o.children()) {
                Boolean v = eval(c, row);
                if (v == Boolean.TRUE) {
                    return true;
                }
                unknown |= v == null;
            }
            return unknown ? null : Boolean.FALSE;
        }
        if (p instanceof Predicate.Not n) {
            Boolean v = eval(n.child(), row);
            return v == null ? null : !v;
        }
        if (p instanceof Predicate.IsNull n) {
            boolean isNull = row.apply(n.column()) == null;
            return n.negated() ? !isNull : isNull;
        }
        if (p instanceof Predicate.Compare c) {
            Object x = row.apply(c.column());
            if (x == null || c.value() == null) {
                return null;
            }
            int cmp = compare(x, c.value());
            switch (c.op()) {
                case EQ: return cmp == 0;
                case NE: return cmp != 0;
                case LT: return cmp < 0;
                case LE: return cmp <= 0;
                case GT: return cmp > 0;
                default: return cmp >= 0;
            }
        }
        if (p instanceof Predicate.Between b) {
            Object x = row.apply(b.column());
            Boolean ge = x == null || b.low() == null ? null : compare(x, b.low()) >= 0;
            Boolean le = x == null || b.high() == null ? null : compare(x, b.high()) <= 0;
            if (ge == Boolean.FALSE || le == Boolean.FALSE) {
                return false;
            }
            return ge == null || le == null ? null : Boolean.TRUE;
        }
        Predicate.In in = (Predicate.In) p;
        Boolean member = in(row.apply(in.column()), in.values());
        if (!in.negated()) {
            return member;
        }
        return member == null ? null : !member;
    }

    /** {@code x IN (values)}: an empty list is false for every row, null or not. */
    private static Boolean in(Object x, List<Object> values) {
        if (values.isEmpty()) {
            return false;
        }
        if (x == null) {
            return null;
        }
        boolean unknown = false;
        for (Object v : values) {
            if (v == null) {
                unknown = true;
            } else if (compare(x, v) == 0) {
                return true;
            }
        }
        return unknown ? null : Boolean.FALSE;
    }

    /** Three-way comparison of a column value with a literal. */
    public static int compare(Object x, Object literal) {
        if (x instanceof String s) {
            return unsigned(s.getBytes(StandardCharsets.UTF_8), bytesOf(literal));
        }
        if (x instanceof byte[] b) {
            return unsigned(b, bytesOf(literal));
        }
        if (x instanceof Boolean b) {
            return Boolean.compare(b, (Boolean) literal);
        }
        if (x instanceof Number && literal instanceof Number) {
            return compareNumbers((Number) x, (Number) literal);
        }
        throw new IllegalArgumentException("cannot compare " + x + " with " + literal);
    }

    private static byte[] bytesOf(Object literal) {
        if (literal instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (literal instanceof Binary b) {
            return b.toByteArray();
        }
        throw new IllegalArgumentException("not a string or binary literal: " + literal);
    }

    private static int unsigned(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int x = a[i] & 0xFF;
            int y = b[i] & 0xFF;
            if (x != y) {
                return x < y ? -1 : 1;
            }
        }
        return Integer.compare(a.length, b.length);
    }

    /** Exact comparison; infinities below/above every finite value (no NaN in the tests' data). */
    private static int compareNumbers(Number a, Number b) {
        int ra = infinityRank(a);
        int rb = infinityRank(b);
        if (ra != 0 || rb != 0) {
            return Integer.compare(ra, rb);
        }
        return exact(a).compareTo(exact(b));
    }

    private static int infinityRank(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) {
                throw new IllegalArgumentException("NaN has no SQL order here");
            }
            return d == Double.POSITIVE_INFINITY ? 1 : d == Double.NEGATIVE_INFINITY ? -1 : 0;
        }
        return 0;
    }

    private static BigDecimal exact(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    /** Row indices (ascending) where {@code p} is TRUE, over rows given column by column. */
    public static long[] selectedRows(Predicate p, List<String> names, Object[][] columns, int rows) {
        long[] out = new long[rows];
        int n = 0;
        for (int r = 0; r < rows; r++) {
            final int row = r;
            if (selects(p, name -> columns[names.indexOf(name)][row])) {
                out[n++] = r;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
