package io.vortex4j.calcite;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

/**
 * {@code x SEARCH sarg} — {@code x IN (v1, ..., vn)} or {@code x NOT IN (...)} — evaluated with a
 * hash set, with exactly the answers of the code Calcite would generate for it (which expands
 * the list into one comparison per value, too big for a Java method beyond a few thousand
 * values): each value is taken as Calcite's generated code takes the literal ({@link
 * RexToLixTranslator#translateLiteral}) and compared as Calcite compares values of the type
 * (strings, integers, booleans, dates and times and binary strings by equality, decimals by
 * value), and NULL gives the Sarg's {@code nullAs}. Only lists of points over those types; other
 * Sargs (ranges, floating point, CHAR(n)) are refused ({@link #of} returns null).
 */
final class InSet {
    private final Set<Object> points;
    private final boolean complemented;
    private final Boolean whenNull;

    private InSet(Set<Object> points, boolean complemented, Boolean whenNull) {
        this.points = points;
        this.complemented = complemented;
        this.whenNull = whenNull;
    }

    /** The set test for {@code search}, a SEARCH call, or null when its Sarg is not a list of points of a supported type. */
    static InSet of(RexCall search, RexBuilder rexBuilder) {
        if (search.getKind() != SqlKind.SEARCH || !(search.getOperands().get(1) instanceof RexLiteral lit)) {
            return null;
        }
        RelDataType type = search.getOperands().get(0).getType();
        if (!supported(type)) {
            return null;
        }
        Sarg<?> sarg = lit.getValueAs(Sarg.class);
        if (sarg == null || !sarg.isPoints() && !sarg.isComplementedPoints()) {
            return null;
        }
        JavaTypeFactory typeFactory = rexBuilder.getTypeFactory() instanceof JavaTypeFactory j
                ? j : new JavaTypeFactoryImpl(rexBuilder.getTypeFactory().getTypeSystem());
        boolean complemented = !sarg.isPoints();
        var ranges = complemented ? sarg.rangeSet.complement().asRanges() : sarg.rangeSet.asRanges();
        Set<Object> points = new HashSet<>();
        for (var range : ranges) {
            Object value = javaValue(rexBuilder.makeLiteral(range.lowerEndpoint(), type, true, true), type, typeFactory);
            if (value == null) {
                return null;
            }
            points.add(key(value));
        }
        Boolean whenNull = sarg.nullAs == RexUnknownAs.TRUE ? Boolean.TRUE
                : sarg.nullAs == RexUnknownAs.FALSE ? Boolean.FALSE : null;
        return new InSet(points, complemented, whenNull);
    }

    /**
     * The Java value Calcite's generated code compares with for {@code point} (what SEARCH
     * expands to: a literal of {@code type}, or a string literal cast to VARCHAR), or null.
     */
    private static Object javaValue(RexNode point, RelDataType type, JavaTypeFactory typeFactory) {
        if (point instanceof RexCall cast && cast.getKind() == SqlKind.CAST
                && cast.getOperands().get(0) instanceof RexLiteral lit && lit.getValue() instanceof NlsString s
                && type.getSqlTypeName() == SqlTypeName.VARCHAR
                && (type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                    || s.getValue().length() <= type.getPrecision())) {
            return s.getValue(); // a CHAR literal as VARCHAR: the same characters
        }
        if (!(point instanceof RexLiteral lit)) {
            return null;
        }
        Expression value = RexToLixTranslator.translateLiteral(lit, type, typeFactory, RexImpTable.NullAs.NULL);
        return value instanceof ConstantExpression c ? c.value : null;
    }

    /** Types whose Calcite comparison is equality of {@link #key}s. */
    private static boolean supported(RelDataType type) {
        switch (type.getSqlTypeName()) {
            case VARCHAR:
            case VARBINARY:
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DECIMAL:
            case DATE:
            case TIME:
            case TIMESTAMP:
                return true;
            default:
                return false;
        }
    }

    /** A value as compared: integers of any width as Long, decimals without trailing zeros. */
    private static Object key(Object v) {
        if (v instanceof BigDecimal d) {
            return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        }
        if (v instanceof Byte || v instanceof Short || v instanceof Integer) {
            return ((Number) v).longValue();
        }
        return v;
    }

    /** TRUE, FALSE or null (unknown) for a row whose operand has Calcite's value {@code v}. */
    Boolean test(Object v) {
        if (v == null) {
            return whenNull;
        }
        return points.contains(key(v)) != complemented;
    }

    /** How many values the list has. */
    int size() {
        return points.size();
    }
}
