package io.vortex4j.reader.predicate;

import io.vortex4j.reader.array.Binary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Normalizing, printing and comparing predicate literals against column values.
 *
 * <p>Public for the reader's own packages; not a user API.
 */
public final class Literals {
    private Literals() {}

    static Object normalize(Object v) {
        if (v == null || v instanceof Long || v instanceof Double || v instanceof String
                || v instanceof Boolean || v instanceof Binary || v instanceof Predicate.Parameter) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float) {
            return ((Float) v).doubleValue();
        }
        if (v instanceof byte[]) {
            return new Binary((byte[]) v);
        }
        if (v instanceof Character) {
            return v.toString();
        }
        if (v instanceof BigInteger) {
            BigInteger b = (BigInteger) v;
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        if (v instanceof BigDecimal || v instanceof LocalDate || v instanceof LocalTime
                || v instanceof LocalDateTime || v instanceof Instant) {
            return v;
        }
        throw new IllegalArgumentException(
                "unsupported literal " + v + " of " + v.getClass().getName());
    }

    static String toSql(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Predicate.Parameter) {
            return v.toString();
        }
        if (v instanceof String) {
            return "'" + ((String) v).replace("'", "''") + "'";
        }
        return v.toString();
    }

    /**
     * Three-way comparison of a column value and a literal (both non-null), or throws
     * {@link ClassCastException} when they are of incomparable kinds. Numbers compare by value
     * whatever their class; strings by code point (= UTF-8 byte order).
     */
    public static int compare(Object value, Object literal) {
        if (value instanceof String && literal instanceof String) {
            return compareCodePoints((String) value, (String) literal);
        }
        if (value instanceof Number && literal instanceof Number) {
            return compareNumbers((Number) value, (Number) literal);
        }
        if (value instanceof byte[] && literal instanceof Binary) {
            return ((Binary) literal).compareBytes((byte[]) value);
        }
        if (value instanceof byte[] && literal instanceof String) {
            return java.util.Arrays.compareUnsigned((byte[]) value,
                    ((String) literal).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (value instanceof Boolean && literal instanceof Boolean) {
            return Boolean.compare((Boolean) value, (Boolean) literal);
        }
        if (value.getClass() == literal.getClass() && value instanceof Comparable) {
            @SuppressWarnings("unchecked")
            Comparable<Object> c = (Comparable<Object>) value;
            return c.compareTo(literal);
        }
        throw new ClassCastException("cannot compare a " + value.getClass().getSimpleName()
                + " value with the literal " + toSql(literal));
    }

    /**
     * Compares a column value {@code a} with a literal {@code b} as the native side does: the
     * literal takes the column's type. Floats order totally (NaN above +Infinity, -0.0 below
     * 0.0, as {@link Double#compare}); an exact literal (integer, decimal) on a float column is
     * the float of its value when there is one (so 0 is +0.0, and -0.0 is below it), and a
     * float literal on an exact column is its exact value (-0.0 is 0; NaN and +Infinity above
     * every number, -Infinity below).
     */
    static int compareNumbers(Number a, Number b) {
        if (a instanceof Long && b instanceof Long) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (isIntegral(a) && isIntegral(b)) {
            return toBigInteger(a).compareTo(toBigInteger(b));
        }
        boolean floatA = a instanceof Double || a instanceof Float;
        boolean floatB = b instanceof Double || b instanceof Float;
        if (floatA && floatB) {
            return Double.compare(a.doubleValue(), b.doubleValue());
        }
        if (floatA && !Double.isFinite(a.doubleValue())) {
            return a.doubleValue() == Double.NEGATIVE_INFINITY ? -1 : 1;
        }
        if (floatB && !Double.isFinite(b.doubleValue())) {
            return b.doubleValue() == Double.NEGATIVE_INFINITY ? 1 : -1;
        }
        int c = toBigDecimal(a).compareTo(toBigDecimal(b));
        if (c == 0 && floatA && isNegativeZero(a.doubleValue())) {
            return -1; // the exact zero literal is +0.0 on a float column
        }
        return c;
    }

    private static boolean isNegativeZero(double d) {
        return d == 0.0 && Double.doubleToRawLongBits(d) != 0;
    }

    private static boolean isIntegral(Number n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof BigInteger;
    }

    private static BigInteger toBigInteger(Number n) {
        return n instanceof BigInteger ? (BigInteger) n : BigInteger.valueOf(n.longValue());
    }

    private static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal) {
            return (BigDecimal) n;
        }
        if (n instanceof BigInteger) {
            return new BigDecimal((BigInteger) n);
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    /** Code point order, which equals UTF-8 byte order; String.compareTo is UTF-16 order. */
    static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Integer.compare(codePointRank(x), codePointRank(y));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** Moves surrogates (U+D800..U+DFFF, which encode code points above U+FFFF) after U+FFFF. */
    private static int codePointRank(char c) {
        return c >= 0xD800 && c <= 0xDFFF ? c + 0x10000 : c;
    }
}
