package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.time.LocalDate;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * Comparisons of a column with a literal or a JDBC parameter as reader leaves that select exactly
 * the rows Calcite's comparison is TRUE for: numbers by exact value, floating point with Java's
 * NaN and -0.0 semantics in the reader's total order, strings ordered only where UTF-16 and code
 * point order agree, TIME and TIMESTAMP as Calcite's milliseconds.
 */
final class ComparisonLeaves {
    private final FilterOperands operands;

    ComparisonLeaves(FilterOperands operands) {
        this.operands = operands;
    }

    /** {@code column op literal} in either order; null unless exact. */
    Predicate comparison(RexCall call) {
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        Predicate.Op op = op(call.getKind());
        VortexColumn c = operands.column(left);
        RexLiteral lit = operands.literal(right);
        if (c == null || lit == null) {
            c = operands.column(right);
            lit = operands.literal(left);
            op = op.flip();
        }
        if (c == null || lit == null || lit.isNull()) {
            return parameterComparison(call);
        }
        return leaf(c, op, lit);
    }

    /**
     * {@code column op ?} in either order, bound when the scan runs ({@link Predicate.Parameter}):
     * only where every value the parameter can take compares exactly in the reader as in
     * Calcite, whatever it turns out to be: integer columns against integer parameters (bound as
     * Calcite converts them to the parameter's type, see {@link VortexScanSpec#bindParameters};
     * the reader places any integer exactly, out-of-range ones included), and string equality
     * (string ordering differs above U+D800). A null value selects nothing, as in SQL.
     */
    private Predicate parameterComparison(RexCall call) {
        Predicate.Op op = op(call.getKind());
        VortexColumn c = operands.column(call.getOperands().get(0));
        RexNode other = call.getOperands().get(1);
        if (c == null) {
            c = operands.column(other);
            other = call.getOperands().get(0);
            op = op.flip();
        }
        if (c == null || !(other instanceof RexDynamicParam param)) {
            return null;
        }
        SqlTypeName type = param.getType().getSqlTypeName();
        DataType.Kind kind = c.kind();
        boolean integers = LosslessCasts.integerBits(kind) > 0 && kind != DataType.Kind.UINT64
                && (type == SqlTypeName.TINYINT || type == SqlTypeName.SMALLINT
                    || type == SqlTypeName.INTEGER || type == SqlTypeName.BIGINT);
        boolean strings = kind == DataType.Kind.UTF8 && type == SqlTypeName.VARCHAR
                && (op == Predicate.Op.EQ || op == Predicate.Op.NE);
        return integers || strings
                ? new Predicate.Compare(c.name(), op, new Predicate.Parameter(param.getIndex(), type.getName())) : null;
    }

    /** The reader's operator of a comparison kind. */
    static Predicate.Op op(SqlKind kind) {
        switch (kind) {
            case EQUALS: return Predicate.Op.EQ;
            case NOT_EQUALS: return Predicate.Op.NE;
            case LESS_THAN: return Predicate.Op.LT;
            case LESS_THAN_OR_EQUAL: return Predicate.Op.LE;
            case GREATER_THAN: return Predicate.Op.GT;
            default: return Predicate.Op.GE;
        }
    }

    /** The predicate for {@code c op lit}, exact under Calcite's semantics, or null. */
    private Predicate leaf(VortexColumn c, Predicate.Op op, RexLiteral lit) {
        SqlTypeName lt = lit.getType().getSqlTypeName();
        String name = c.name();
        DataType.Kind k = c.kind();
        switch (k) {
            case INT8: case INT16: case INT32: case INT64:
            case UINT8: case UINT16: case UINT32: case UINT64:
            case DECIMAL: {
                Object v = LiteralValues.number(lit);
                if (v == null || (v instanceof Double && !exactInFloatingPoint(c, lt))) {
                    return null;
                }
                return new Predicate.Compare(name, op, v);
            }
            case FLOAT16:
            case FLOAT32:
            case FLOAT64: {
                Double d = LiteralValues.floating(lit);
                return d == null ? null : floatLeaf(name, op, d);
            }
            case UTF8: {
                if (lt != SqlTypeName.CHAR && lt != SqlTypeName.VARCHAR) {
                    return null;
                }
                String s = ((NlsString) lit.getValue()).getValue();
                if (op != Predicate.Op.EQ && op != Predicate.Op.NE && !orderSafe(s)) {
                    return null;
                }
                return new Predicate.Compare(name, op, s);
            }
            case BINARY: {
                if (lt != SqlTypeName.BINARY && lt != SqlTypeName.VARBINARY) {
                    return null;
                }
                return new Predicate.Compare(name, op, ((ByteString) lit.getValue()).getBytes());
            }
            case BOOL:
                return lt == SqlTypeName.BOOLEAN ? new Predicate.Compare(name, op, lit.getValueAs(Boolean.class)) : null;
            case DATE:
                return lt == SqlTypeName.DATE
                        ? new Predicate.Compare(name, op, LocalDate.ofEpochDay(lit.getValueAs(Integer.class))) : null;
            case TIME:
                return lt == SqlTypeName.TIME ? temporalLeaf(c, op, lit.getValueAs(Integer.class)) : null;
            case TIMESTAMP:
                return lt == SqlTypeName.TIMESTAMP ? temporalLeaf(c, op, lit.getValueAs(Long.class)) : null;
            default:
                return null;
        }
    }

    /**
     * Whether every value of the exact column {@code c} is exactly a value of the floating-point
     * literal type {@code lt}, so that Calcite's floating-point comparison is an exact one.
     */
    private static boolean exactInFloatingPoint(VortexColumn c, SqlTypeName lt) {
        DataType.Kind k = c.kind();
        int mantissa = lt == SqlTypeName.REAL ? 24 : 53;
        if (k.isInteger()) {
            return LosslessCasts.integerBits(k) <= (mantissa == 24 ? 16 : 32);
        }
        return k == DataType.Kind.DECIMAL && c.type().scale() == 0 && c.type().precision() <= (mantissa == 24 ? 7 : 15);
    }

    /**
     * {@code x op d} on a float column with Java's semantics (NaN compares false except {@code
     * <>}, -0.0 equals 0.0) expressed in the reader's total order (NaN above +Infinity, -0.0
     * below 0.0).
     */
    private static Predicate floatLeaf(String name, Predicate.Op op, double d) {
        final double inf = Double.POSITIVE_INFINITY;
        if (d == 0) {
            switch (op) {
                case EQ: return Predicate.between(name, -0.0d, 0.0d);
                case NE: return Predicate.not(Predicate.between(name, -0.0d, 0.0d));
                case LT: return Predicate.lt(name, -0.0d);
                case LE: return Predicate.le(name, 0.0d);
                case GT: return Predicate.and(Predicate.gt(name, 0.0d), Predicate.le(name, inf));
                default: return Predicate.and(Predicate.ge(name, -0.0d), Predicate.le(name, inf));
            }
        }
        switch (op) {
            case GT: return Predicate.and(Predicate.gt(name, d), Predicate.le(name, inf));
            case GE: return Predicate.and(Predicate.ge(name, d), Predicate.le(name, inf));
            default: return new Predicate.Compare(name, op, d);
        }
    }

    /** Whether UTF-16 order and code point order agree for every string compared with {@code s}. */
    static boolean orderSafe(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0xD800) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code x op millis} where Calcite sees {@code x} as milliseconds (floored from finer raw
     * units, multiplied from seconds), as a predicate on the raw values.
     */
    private static Predicate temporalLeaf(VortexColumn c, Predicate.Op op, Number literal) {
        if (literal == null) {
            return null;
        }
        DataType type = c.type();
        String name = c.name();
        long millis = literal.longValue();
        long lo = VortexColumn.minRawForMillis(millis, type.unit());
        long next = VortexColumn.minRawForMillis(Math.addExact(millis, 1), type.unit());
        switch (op) {
            case LT: return Predicate.lt(name, VortexColumn.rawToJavaTime(lo, type));
            case LE: return Predicate.lt(name, VortexColumn.rawToJavaTime(next, type));
            case GT: return Predicate.ge(name, VortexColumn.rawToJavaTime(next, type));
            case GE: return Predicate.ge(name, VortexColumn.rawToJavaTime(lo, type));
            default: {
                Predicate eq;
                if (next - lo == 1) {
                    eq = Predicate.eq(name, VortexColumn.rawToJavaTime(lo, type));
                } else if (next == lo) {
                    // No raw value maps to these milliseconds: nothing equals them (nulls stay unknown).
                    eq = Predicate.and(Predicate.lt(name, VortexColumn.rawToJavaTime(lo, type)),
                            Predicate.ge(name, VortexColumn.rawToJavaTime(lo, type)));
                } else {
                    eq = Predicate.between(name, VortexColumn.rawToJavaTime(lo, type),
                            VortexColumn.rawToJavaTime(Math.subtractExact(next, 1), type));
                }
                return op == Predicate.Op.EQ ? eq : Predicate.not(eq);
            }
        }
    }
}
