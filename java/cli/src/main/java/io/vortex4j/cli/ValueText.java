package io.vortex4j.cli;

import java.sql.SQLException;
import java.sql.Struct;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How the CLI prints one value of a result: binary as {@code \x} and lowercase hex (as DuckDB and
 * PostgreSQL do), arrays as {@code [a, b]}, rows as {@code (1, a)}, maps as {@code {k=v}}; the
 * rest as Java prints it. Nested values follow the same rules; nulls inside them print as NULL.
 */
final class ValueText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ValueText() {}

    /** {@code value} as text; {@code null} for SQL NULL (callers print it their way). */
    static String of(Object value) throws SQLException {
        if (value == null) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        append(b, value);
        return b.toString();
    }

    private static void append(StringBuilder b, Object v) throws SQLException {
        if (v == null) {
            b.append("NULL");
        } else if (v instanceof byte[] bytes) {
            b.append("\\x");
            for (byte x : bytes) {
                b.append(HEX[(x >> 4) & 0xF]).append(HEX[x & 0xF]);
            }
        } else if (v instanceof java.sql.Array a) {
            append(b, (Object) a.getArray());
        } else if (v instanceof Object[] elements) {
            appendAll(b, Arrays.asList(elements), '[', ']');
        } else if (v instanceof List<?> list) {
            appendAll(b, list, '[', ']');
        } else if (v instanceof Struct s) {
            appendAll(b, Arrays.asList(s.getAttributes()), '(', ')');
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(sep);
                append(b, e.getKey());
                b.append('=');
                append(b, e.getValue());
                sep = ", ";
            }
            b.append('}');
        } else {
            b.append(v);
        }
    }

    private static void appendAll(StringBuilder b, List<?> elements, char open, char close) throws SQLException {
        b.append(open);
        for (int i = 0; i < elements.size(); i++) {
            b.append(i > 0 ? ", " : "");
            append(b, elements.get(i));
        }
        b.append(close);
    }
}
