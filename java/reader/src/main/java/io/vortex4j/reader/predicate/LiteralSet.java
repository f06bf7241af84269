package io.vortex4j.reader.predicate;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.array.Binary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The literals of an {@code IN} list as a hash set, for the values of one column type: {@link
 * #contains} is true exactly when {@code Literals.compare(value, literal) == 0} for some
 * literal, in one lookup instead of one comparison per literal. Each literal becomes the key
 * of the column value it equals: for integer columns the exact integer, for float columns the
 * double (compared as {@link Double#equals}, i.e. {@link Double#compare}; an exact literal is
 * the float of its value, so 0 is +0.0), for decimals the value without trailing zeros; a
 * literal no value of the type equals (2.5 on an integer column) has no key.
 */
final class LiteralSet {
    private final DataType.Kind kind;
    private final Set<Object> keys = new HashSet<>();
    private final boolean hasNull;

    private LiteralSet(DataType.Kind kind, List<Object> literals) {
        this.kind = kind;
        boolean sawNull = false;
        for (Object literal : literals) {
            if (literal == null) {
                sawNull = true;
            } else {
                Object key = literalKey(literal);
                if (key != null) {
                    keys.add(key);
                }
            }
        }
        this.hasNull = sawNull;
    }

    /** The set for values of {@code kind}, or null for a kind it does not serve. */
    static LiteralSet of(DataType.Kind kind, List<Object> literals) {
        switch (kind) {
            case INT8: case INT16: case INT32: case INT64:
            case UINT8: case UINT16: case UINT32: case UINT64:
            case FLOAT16: case FLOAT32: case FLOAT64:
            case DECIMAL: case UTF8: case BINARY: case BOOL:
            case DATE: case TIME: case TIMESTAMP:
                return new LiteralSet(kind, literals);
            default:
                return null;
        }
    }

    /** Whether the list holds a NULL. */
    boolean hasNull() {
        return hasNull;
    }

    /** Whether a literal equals {@code value} (a column value, not null). */
    boolean contains(Object value) {
        return keys.contains(valueKey(value));
    }

    private Object valueKey(Object v) {
        switch (kind) {
            case FLOAT16: case FLOAT32: case FLOAT64:
                return ((Number) v).doubleValue();
            case DECIMAL:
                return ((BigDecimal) v).stripTrailingZeros();
            case BINARY:
                return new Bytes((byte[]) v);
            default:
                return kind.isInteger() ? integer((Number) v) : v;
        }
    }

    /** The key of the column value {@code literal} equals, or null when no value equals it. */
    private Object literalKey(Object literal) {
        switch (kind) {
            case FLOAT16: case FLOAT32: case FLOAT64:
                if (literal instanceof Double d) {
                    return d;
                }
                BigDecimal exact = exact(literal);
                if (exact == null) {
                    return null;
                }
                double d = exact.doubleValue();
                return Double.isFinite(d) && new BigDecimal(d).compareTo(exact) == 0 ? (Object) d : null;
            case DECIMAL: {
                BigDecimal e = exact(literal);
                return e == null ? null : e.stripTrailingZeros();
            }
            case BINARY:
                return literal instanceof Binary b ? new Bytes(b.toByteArray())
                        : literal instanceof String s ? new Bytes(s.getBytes(StandardCharsets.UTF_8)) : null;
            default:
                if (kind.isInteger()) {
                    BigDecimal e = exact(literal);
                    if (e == null || e.stripTrailingZeros().scale() > 0) {
                        return null;
                    }
                    return integer(e.toBigIntegerExact());
                }
                return literal;
        }
    }

    /** A number's exact value; null for NaN, infinities and non-numbers. */
    private static BigDecimal exact(Object n) {
        if (n instanceof Long l) {
            return BigDecimal.valueOf(l);
        } else if (n instanceof BigInteger b) {
            return new BigDecimal(b);
        } else if (n instanceof BigDecimal d) {
            return d;
        } else if (n instanceof Double d && Double.isFinite(d)) {
            return new BigDecimal(d);
        }
        return null;
    }

    /** One key per integer: a Long when it fits, else the BigInteger. */
    private static Object integer(Number n) {
        if (n instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        return n.longValue();
    }

    /** Bytes compared by content, for binary values. */
    private record Bytes(byte[] b) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes x && Arrays.equals(b, x.b);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(b);
        }
    }
}
