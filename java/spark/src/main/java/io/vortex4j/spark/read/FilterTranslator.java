package io.vortex4j.spark.read;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Translates Spark's V2 predicates into reader {@link Predicate}s that select exactly the rows
 * Spark would keep, or declines (null). Both sides use SQL's three-valued logic and compare
 * strings by their UTF-8 bytes, so a translated predicate is applied fully and Spark drops it.
 *
 * <p>Taken: {@code = <> < <= > >=} and {@code <=>} between a column and a literal (either
 * side), {@code IN}, {@code IS [NOT] NULL}, {@code STARTS_WITH}, {@code ENDS_WITH} and {@code
 * CONTAINS} (as {@code LIKE} with the literal escaped), {@code AND}, {@code OR}, {@code NOT},
 * over columns of integer, boolean, string, binary, decimal and date types. Declined:
 * floating-point columns (Spark orders NaN above every number and equal to itself, IEEE
 * comparisons do not), timestamps, unsigned 64-bit columns, and anything with an expression
 * other than a plain column.
 */
final class FilterTranslator {
    private final Schema schema;

    FilterTranslator(Schema schema) {
        this.schema = schema;
    }

    /** The reader predicate of {@code p}, or null when it cannot be applied exactly. */
    Predicate translate(org.apache.spark.sql.connector.expressions.filter.Predicate p) {
        Expression[] c = p.children();
        switch (p.name()) {
            case "AND":
            case "OR": {
                List<Predicate> children = new ArrayList<>();
                for (Expression e : c) {
                    Predicate t = e instanceof org.apache.spark.sql.connector.expressions.filter.Predicate q ? translate(q) : null;
                    if (t == null) {
                        return null;
                    }
                    children.add(t);
                }
                return p.name().equals("AND") ? Predicate.and(children) : Predicate.or(children);
            }
            case "NOT": {
                Predicate t = c[0] instanceof org.apache.spark.sql.connector.expressions.filter.Predicate q ? translate(q) : null;
                return t == null ? null : Predicate.not(t);
            }
            case "IS_NULL":
            case "IS_NOT_NULL": {
                Field f = column(c[0]);
                return f == null ? null : new Predicate.IsNull(f.name(), p.name().equals("IS_NOT_NULL"));
            }
            case "IN":
                return in(c);
            case "STARTS_WITH":
            case "ENDS_WITH":
            case "CONTAINS":
                return like(p.name(), c);
            case "=":
            case "<>":
            case "<":
            case "<=":
            case ">":
            case ">=":
            case "<=>":
                return compare(p.name(), c);
            default:
                return null;
        }
    }

    private Predicate compare(String name, Expression[] c) {
        boolean flipped = c[0] instanceof Literal<?>;
        Field f = column(flipped ? c[1] : c[0]);
        Expression lit = flipped ? c[0] : c[1];
        if (f == null || !(lit instanceof Literal<?> l)) {
            return null;
        }
        if (name.equals("<=>")) {
            if (l.value() == null) {
                return Predicate.isNull(f.name());
            }
            Object v = literal(f, l.value());
            // Never unknown, as <=> is: false where the column is null, also under NOT.
            return v == null ? null : Predicate.and(Predicate.eq(f.name(), v), Predicate.isNotNull(f.name()));
        }
        Object v = l.value() == null ? null : literal(f, l.value());
        if (v == null) {
            return null;
        }
        Predicate.Op op = switch (name) {
            case "=" -> Predicate.Op.EQ;
            case "<>" -> Predicate.Op.NE;
            case "<" -> Predicate.Op.LT;
            case "<=" -> Predicate.Op.LE;
            case ">" -> Predicate.Op.GT;
            default -> Predicate.Op.GE;
        };
        return new Predicate.Compare(f.name(), flipped ? op.flip() : op, v);
    }

    private Predicate in(Expression[] c) {
        Field f = column(c[0]);
        if (f == null) {
            return null;
        }
        List<Object> values = new ArrayList<>();
        for (int i = 1; i < c.length; i++) {
            if (!(c[i] instanceof Literal<?> l)) {
                return null;
            }
            Object v = l.value() == null ? null : literal(f, l.value());
            if (v == null && l.value() != null) {
                return null;
            }
            values.add(v);
        }
        return Predicate.in(f.name(), values);
    }

    private Predicate like(String name, Expression[] c) {
        Field f = column(c[0]);
        if (f == null || f.type().kind() != DataType.Kind.UTF8 || !(c[1] instanceof Literal<?> l)
                || !(l.value() instanceof UTF8String s)) {
            return null;
        }
        String e = escape(s.toString());
        String pattern = switch (name) {
            case "STARTS_WITH" -> e + "%";
            case "ENDS_WITH" -> "%" + e;
            default -> "%" + e + "%";
        };
        return new Predicate.Like(f.name(), pattern, '\\', false, false);
    }

    /** The literal text of a LIKE pattern: {@code %}, {@code _} and {@code \} escaped. */
    private static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 4);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '%' || ch == '_' || ch == '\\') {
                sb.append('\\');
            }
            sb.append(ch);
        }
        return sb.toString();
    }

    /** The column a plain top-level reference names, if its type is one filters are exact on. */
    private Field column(Expression e) {
        if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
            return null;
        }
        int i = schema.indexOf(r.fieldNames()[0]);
        if (i < 0) {
            return null;
        }
        Field f = schema.field(i);
        switch (f.type().kind()) {
            case BOOL: case INT8: case INT16: case INT32: case INT64: case UINT8: case UINT16: case UINT32:
            case UTF8: case BINARY: case DECIMAL: case DATE:
                return f;
            default:
                return null;
        }
    }

    /** A Spark literal (its internal form) as the reader's literal for column {@code f}, or null. */
    private static Object literal(Field f, Object v) {
        switch (f.type().kind()) {
            case BOOL:
                return v instanceof Boolean ? v : null;
            case INT8: case INT16: case INT32: case INT64: case UINT8: case UINT16: case UINT32:
                return v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long
                        ? ((Number) v).longValue() : null;
            case UTF8:
                return v instanceof UTF8String s ? s.toString() : null;
            case BINARY:
                return v instanceof byte[] ? v : null;
            case DECIMAL:
                return v instanceof Decimal d ? (BigDecimal) d.toJavaBigDecimal() : null;
            case DATE:
                return v instanceof Integer days ? LocalDate.ofEpochDay(days) : null;
            default:
                return null;
        }
    }
}
