package io.vortex4j.cli;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/** Parses command-line values as literals of a column's type. */
final class Literals {
    private Literals() {}

    /** {@code text} as a literal for {@code field}; "NULL" (any case) is SQL NULL. */
    static Object parse(Field field, String text) {
        if (text.equalsIgnoreCase("null")) {
            return null;
        }
        DataType t = field.type();
        try {
            switch (t.kind()) {
                case UTF8:
                    return text;
                case BINARY:
                    return text.getBytes(StandardCharsets.UTF_8);
                case BOOL:
                    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                        throw new IllegalArgumentException("expected true or false");
                    }
                    return Boolean.parseBoolean(text);
                case FLOAT16:
                case FLOAT32:
                case FLOAT64:
                    return Double.parseDouble(text);
                case DECIMAL:
                    return new BigDecimal(text);
                case DATE:
                    return LocalDate.parse(text);
                case TIME:
                    return LocalTime.parse(text);
                case TIMESTAMP:
                    return t.timezone() == null ? LocalDateTime.parse(text) : Instant.parse(text);
                default:
                    if (t.kind().isInteger()) {
                        // Fractions and out-of-range values compare correctly too.
                        BigDecimal d = new BigDecimal(text);
                        return d.scale() <= 0 || d.stripTrailingZeros().scale() <= 0
                                ? (Object) d.toBigIntegerExact() : d;
                    }
                    throw new IllegalArgumentException("columns of type " + t + " cannot be filtered");
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a value of column '" + field.name()
                    + "' (" + t + "): " + e.getMessage(), e);
        }
    }

    /** Narrows a BigInteger literal to Long when it fits. */
    static Object normalize(Object v) {
        if (v instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        return v;
    }
}
