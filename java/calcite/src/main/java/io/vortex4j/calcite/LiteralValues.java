package io.vortex4j.calcite;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/** Literals as the values Calcite's generated code compares a column with. */
final class LiteralValues {
    private LiteralValues() {}

    /** An exact numeric or finite approximate literal as the value Calcite compares; else null. */
    static Object number(RexLiteral lit) {
        SqlTypeName lt = lit.getType().getSqlTypeName();
        Object v = lit.getValue();
        switch (lt) {
            case TINYINT: case SMALLINT: case INTEGER: case BIGINT: case DECIMAL: {
                if (!(v instanceof BigDecimal bd)) {
                    return null;
                }
                return exact(bd);
            }
            case REAL:
            case FLOAT:
            case DOUBLE: {
                Double d = floating(lit);
                return d == null || d.isNaN() ? null : d;
            }
            default:
                return null;
        }
    }

    /** Integral values as Long (or BigInteger), others as BigDecimal. */
    private static Object exact(BigDecimal bd) {
        if (bd.signum() == 0) {
            return 0L;
        }
        BigDecimal stripped = bd.stripTrailingZeros();
        if (stripped.scale() <= 0) {
            BigInteger i = stripped.toBigIntegerExact();
            return i.bitLength() < 64 ? (Object) i.longValue() : i;
        }
        return stripped;
    }

    /**
     * The double Calcite's generated code compares a float column with: the literal as its
     * type's Java float or double. Null for non-numeric literals and NaN.
     */
    static Double floating(RexLiteral lit) {
        SqlTypeName lt = lit.getType().getSqlTypeName();
        Object v = lit.getValue();
        double d;
        if (lt == SqlTypeName.REAL) {
            d = v instanceof BigDecimal bd ? (double) bd.floatValue()
                    : v instanceof Double x ? (double) x.floatValue() : Double.NaN;
        } else if (lt == SqlTypeName.DOUBLE || lt == SqlTypeName.FLOAT) {
            d = v instanceof BigDecimal bd ? bd.doubleValue() : v instanceof Double x ? x : Double.NaN;
        } else if (v instanceof BigDecimal bd
                && (lt == SqlTypeName.DECIMAL || lt == SqlTypeName.INTEGER || lt == SqlTypeName.BIGINT
                    || lt == SqlTypeName.SMALLINT || lt == SqlTypeName.TINYINT)) {
            // Exact literals only when the value is a double exactly: then every way of comparing agrees.
            d = bd.doubleValue();
            if (Double.isInfinite(d) || new BigDecimal(d).compareTo(bd) != 0) {
                return null;
            }
        } else {
            return null;
        }
        return Double.isNaN(d) ? null : d;
    }
}
