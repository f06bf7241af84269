package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.util.NlsString;

/**
 * Translates Calcite filter conditions into reader {@link Predicate}s that select exactly the
 * rows where Calcite's own evaluation of the condition is TRUE, or declines (returns null).
 *
 * <p>The reader's predicates follow SQL's three-valued logic and are evaluated in negation normal
 * form; a translation is exact when every leaf is TRUE for the same rows as Calcite's leaf and its
 * negation is TRUE for the same rows as Calcite's negated leaf. Leaves are built with that in mind:
 *
 * <ul>
 *   <li>{@code SEARCH} (IN, NOT IN, BETWEEN, ranges, with or without {@code IS NULL}) is expanded
 *       exactly as Calcite's code generator expands it ({@link RexUtil#expandSearch}), then
 *       translated; equalities on one column become {@code IN}, inequalities {@code NOT IN}.
 *   <li>Numbers compare by exact value in the reader. A column wrapped in a CAST is accepted only
 *       when the cast cannot change any value of the column (e.g. TINYINT to INTEGER, INTEGER to
 *       DOUBLE, never BIGINT to DOUBLE). Literals are taken as Calcite's generated code takes them
 *       (a DOUBLE literal as the nearest double, a REAL one as the nearest float).
 *   <li>Floating-point columns: Java comparisons treat NaN as unordered and -0.0 as equal to 0.0,
 *       the reader orders them totally; leaves on zero and {@code >}/{@code >=} leaves are
 *       rewritten so that both agree (e.g. {@code x > 1} becomes {@code x > 1 AND x <= +Inf}).
 *   <li>Strings: equality always; ordering only when the literal has no character at or above
 *       U+D800, since Calcite orders strings by UTF-16 unit and the reader by code point, which
 *       differ only there.
 *   <li>DATE is exact; TIME and TIMESTAMP columns whose unit is finer than milliseconds are seen by
 *       Calcite truncated to milliseconds, so comparisons become ranges of raw values.
 * </ul>
 *
 *   <li>{@code LIKE} with a literal pattern becomes the reader's LIKE leaf where the two agree
 *       exactly (see {@link #like}).
 *   <li>Any other condition (or AND/OR/NOT subtree) whose only input is one string column, e.g.
 *       {@code UPPER(city) = 'OSLO'}, {@code ILIKE}, or a string ordering the reader would order
 *       differently, becomes a {@link Predicate.Computed} leaf running Calcite's own generated
 *       code for it once per dictionary entry ({@link #computed}), when it cannot throw.
 * </ul>
 *
 * <p>Anything else (comparisons of two columns, lossy casts, expressions of other types or
 * that may throw, ...) is declined and stays in Calcite's plan.
 */
final class FilterTranslator {
    private final RexBuilder rexBuilder;
    private final List<VortexColumn> inputs;
    private final SqlConformance conformance;

    /**
     * A translator for conditions over rows whose field {@code i} is {@code inputs.get(i)};
     * {@code conformance} is the statement's, for compiling expressions as Calcite would.
     */
    FilterTranslator(RexBuilder rexBuilder, List<VortexColumn> inputs, SqlConformance conformance) {
        this.rexBuilder = rexBuilder;
        this.inputs = inputs;
        this.conformance = conformance;
    }

    /** The exact predicate, or null when the condition cannot be translated exactly. */
    Predicate translate(RexNode node) {
        try {
            return node(node);
        } catch (ArithmeticException | DateTimeException e) {
            // A bound that does not fit the column's representation: leave it to Calcite.
            return null;
        }
    }

    /** The exact predicate of {@code node}: a native leaf or combination, else Calcite's own code per value. */
    private Predicate node(RexNode node) {
        Predicate p = exact(node);
        return p != null ? p : computed(node);
    }

    private Predicate exact(RexNode node) {
        if (node instanceof RexLiteral lit) {
            if (lit.getType().getSqlTypeName() == SqlTypeName.BOOLEAN && !lit.isNull()) {
                return Boolean.TRUE.equals(lit.getValueAs(Boolean.class))
                        ? Predicate.and(List.of()) : Predicate.or(List.of());
            }
            return null;
        }
        if (node instanceof RexInputRef ref) {
            // A boolean column used as a condition.
            VortexColumn c = inputs.get(ref.getIndex());
            return c.kind() == DataType.Kind.BOOL ? Predicate.eq(c.name(), true) : null;
        }
        if (!(node instanceof RexCall call)) {
            return null;
        }
        Predicate onList = ListFilters.translate(call, inputs::get);
        if (onList != null) {
            return onList;
        }
        switch (call.getKind()) {
            case AND: {
                List<Predicate> children = children(call);
                return children == null ? null : merged(children, true);
            }
            case OR: {
                List<Predicate> children = children(call);
                return children == null ? null : merged(children, false);
            }
            case NOT: {
                Predicate child = node(call.getOperands().get(0));
                return child == null ? null : Predicate.not(child);
            }
            case SEARCH: {
                if (column(call.getOperands().get(0)) == null
                        && ListFilters.cardinalityOf(call.getOperands().get(0), inputs::get) == null) {
                    return null; // an IN list of an expression: one computed leaf, not one per value
                }
                RexNode expanded = RexUtil.expandSearch(rexBuilder, null, call);
                return expanded.getKind() == SqlKind.SEARCH ? null : node(expanded);
            }
            case LIKE:
                return like(call);
            case IS_NULL:
            case IS_NOT_NULL: {
                VortexColumn c = column(call.getOperands().get(0));
                return c == null ? null : new Predicate.IsNull(c.name(), call.getKind() == SqlKind.IS_NOT_NULL);
            }
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                return comparison(call);
            default:
                return null;
        }
    }

    private List<Predicate> children(RexCall call) {
        List<Predicate> out = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            Predicate p = node(operand);
            if (p == null) {
                return null;
            }
            out.add(p);
        }
        return out;
    }

    /**
     * {@code column LIKE 'pattern' [ESCAPE 'c']} as the reader's LIKE leaf, where its semantics
     * are Calcite's: Calcite (1.42) matches with a Java regex in which {@code %} is {@code
     * (?s:.*)} (any characters) but {@code _} is {@code .}, which does not match line
     * terminators, while the reader's {@code _} matches any character; so only patterns without
     * an unescaped {@code _} become leaves. Without ESCAPE, Calcite takes the character U+0000
     * as the escape, so such patterns stay with Calcite's code too, as do invalid patterns (Calcite
     * fails on them row by row) and ILIKE (Calcite folds only ASCII letters). Those become
     * computed leaves or stay with Calcite.
     */
    private Predicate like(RexCall call) {
        if (!(call.getOperator() instanceof SqlLikeOperator op) || !op.isCaseSensitive() || op.isNegated()
                || call.getKind() != SqlKind.LIKE) {
            return null;
        }
        List<RexNode> operands = call.getOperands();
        VortexColumn c = column(operands.get(0));
        if (c == null || c.kind() != DataType.Kind.UTF8) {
            return null;
        }
        String pattern = stringLiteral(operands.get(1));
        Character escape = null;
        if (operands.size() > 2) {
            String e = stringLiteral(operands.get(2));
            if (e == null || e.length() != 1 || Character.isSurrogate(e.charAt(0))) {
                return null;
            }
            escape = e.charAt(0);
        }
        if (pattern == null || escape == null && pattern.indexOf('\0') >= 0 || hasWildcardOne(pattern, escape)) {
            return null;
        }
        try {
            return new Predicate.Like(c.name(), pattern, escape, false, false);
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }

    /** Whether {@code pattern} has an {@code _} not escaped by {@code escape}. */
    private static boolean hasWildcardOne(String pattern, Character escape) {
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (escape != null && ch == escape) {
                i++;
            } else if (ch == '_') {
                return true;
            }
        }
        return false;
    }

    /** The value of a non-null CHAR/VARCHAR literal, else null. */
    private static String stringLiteral(RexNode node) {
        if (node instanceof RexLiteral lit && !lit.isNull() && lit.getValue() instanceof NlsString s) {
            return s.getValue();
        }
        return null;
    }

    /**
     * {@code node}, a condition reading one string column, as a {@link Predicate.Computed} leaf
     * whose test is Calcite's own generated code for it ({@link ColumnExpression}), evaluated by
     * the reader once per dictionary entry. Only conditions that cannot throw ({@link
     * OneColumnExpressions#cannotThrow}) and that compile without the statement's context (see
     * {@link ColumnExpression#ofStringColumn}). Null when not possible.
     */
    private Predicate computed(RexNode node) {
        if (node.getType().getSqlTypeName() != SqlTypeName.BOOLEAN) {
            return null;
        }
        ColumnExpression test = ColumnExpression.ofStringColumn(rexBuilder, node, inputs::get, conformance);
        return test == null ? null
                : new Predicate.Computed(test.column().name(), ExpressionText.of(node, names()), test, false);
    }

    /** The input field names, for describing expressions. */
    private List<String> names() {
        List<String> names = new ArrayList<>(inputs.size());
        for (VortexColumn c : inputs) {
            names.add(c.name());
        }
        return names;
    }

    /** {@code column op literal} in either order; null unless exact. */
    private Predicate comparison(RexCall call) {
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        Predicate.Op op = op(call.getKind());
        VortexColumn c = column(left);
        RexLiteral lit = literal(right);
        if (c == null || lit == null) {
            c = column(right);
            lit = literal(left);
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
        VortexColumn c = column(call.getOperands().get(0));
        RexNode other = call.getOperands().get(1);
        if (c == null) {
            c = column(other);
            other = call.getOperands().get(0);
            op = op.flip();
        }
        if (c == null || !(other instanceof RexDynamicParam param)) {
            return null;
        }
        SqlTypeName type = param.getType().getSqlTypeName();
        DataType.Kind kind = c.kind();
        boolean integers = integerBits(kind) > 0 && kind != DataType.Kind.UINT64
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

    /** The column behind {@code node}: an input reference, or one under casts that keep every value. */
    private VortexColumn column(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return inputs.get(ref.getIndex());
        }
        if (node.getKind() == SqlKind.CAST && node instanceof RexCall cast) {
            VortexColumn c = column(cast.getOperands().get(0));
            if (c != null && cast.getOperands().get(0) instanceof RexInputRef
                    && keepsValues(c, cast.getType())) {
                return c;
            }
        }
        return null;
    }

    /** The literal {@code node} is, or reduces to (a CAST of a literal); null otherwise. */
    private RexLiteral literal(RexNode node) {
        if (node instanceof RexLiteral lit) {
            return lit;
        }
        if (node.getKind() == SqlKind.CAST && node instanceof RexCall cast
                && literal(cast.getOperands().get(0)) != null) {
            List<RexNode> reduced = new ArrayList<>();
            try {
                RexUtil.EXECUTOR.reduce(rexBuilder, List.of(node), reduced);
            } catch (RuntimeException e) {
                return null;
            }
            if (reduced.size() == 1 && reduced.get(0) instanceof RexLiteral r
                    && r.getType().getSqlTypeName() == node.getType().getSqlTypeName()) {
                return r;
            }
        }
        return null;
    }

    /** Digits before the point that every value of an integer kind fits in. */
    private static int integerDigits(DataType.Kind kind) {
        switch (kind) {
            case INT8: case UINT8: return 3;
            case INT16: case UINT16: return 5;
            case INT32: case UINT32: return 10;
            case INT64: return 19;
            default: return 20; // UINT64
        }
    }

    /** Bits of magnitude of an integer kind (for exactness in floating point). */
    private static int integerBits(DataType.Kind kind) {
        switch (kind) {
            case INT8: case UINT8: return 8;
            case INT16: case UINT16: return 16;
            case INT32: case UINT32: return 32;
            default: return 64;
        }
    }

    /**
     * Whether casting every value of column {@code c} to {@code target} keeps it the same number
     * (or string, or instant), so that comparing the cast value equals comparing the value.
     */
    static boolean keepsValues(VortexColumn c, RelDataType target) {
        DataType.Kind k = c.kind();
        SqlTypeName t = target.getSqlTypeName();
        if (k.isInteger()) {
            switch (t) {
                case TINYINT: return k == DataType.Kind.INT8;
                case SMALLINT: return k == DataType.Kind.INT8 || k == DataType.Kind.INT16 || k == DataType.Kind.UINT8;
                case INTEGER: return integerBits(k) <= 16 || k == DataType.Kind.INT32;
                case BIGINT: return integerBits(k) <= 32 || k == DataType.Kind.INT64;
                case DECIMAL: return target.getPrecision() - target.getScale() >= integerDigits(k);
                case REAL: return integerBits(k) <= 16;
                case FLOAT:
                case DOUBLE: return integerBits(k) <= 32;
                default: return false;
            }
        }
        switch (k) {
            case DECIMAL:
                if (t == SqlTypeName.DECIMAL) {
                    return target.getScale() >= c.type().scale()
                            && target.getPrecision() - target.getScale() >= c.type().precision() - c.type().scale();
                }
                return (t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT)
                        && c.type().scale() == 0 && c.type().precision() <= 15;
            case FLOAT16:
            case FLOAT32:
                return t == SqlTypeName.REAL || t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT;
            case FLOAT64:
                return t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT;
            case UTF8:
                return t == SqlTypeName.VARCHAR && target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED;
            case BINARY:
                return t == SqlTypeName.VARBINARY && target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED;
            case BOOL:
                return t == SqlTypeName.BOOLEAN;
            case DATE:
                return t == SqlTypeName.DATE;
            case TIME:
                // Every TIME precision holds Calcite's milliseconds; only a lower one truncates.
                return t == SqlTypeName.TIME && target.getPrecision() >= (c.type().unit() == DataType.TimeUnit.SECONDS ? 0 : 3);
            case TIMESTAMP:
                return t == SqlTypeName.TIMESTAMP && target.getPrecision() >= (c.type().unit() == DataType.TimeUnit.SECONDS ? 0 : 3);
            default:
                return false;
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
                Object v = number(lit);
                if (v == null || (v instanceof Double && !exactInFloatingPoint(c, lt))) {
                    return null;
                }
                return new Predicate.Compare(name, op, v);
            }
            case FLOAT16:
            case FLOAT32:
            case FLOAT64: {
                Double d = floating(lit);
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
            return integerBits(k) <= (mantissa == 24 ? 16 : 32);
        }
        return k == DataType.Kind.DECIMAL && c.type().scale() == 0 && c.type().precision() <= (mantissa == 24 ? 7 : 15);
    }

    /** An exact numeric or finite approximate literal as the value Calcite compares; else null. */
    private static Object number(RexLiteral lit) {
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
    private static Double floating(RexLiteral lit) {
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

    /**
     * OR of children, flattened, with the equalities on one column merged into one IN; or, for a
     * {@code conjunction}, AND of children with the inequalities on one column merged into one NOT
     * IN. Lists holding NULL are not merged, nor (in a conjunction) an empty NOT IN.
     */
    private static Predicate merged(List<Predicate> children, boolean conjunction) {
        List<Predicate> flat = new ArrayList<>();
        for (Predicate p : children) {
            if (!conjunction && p instanceof Predicate.Or or) {
                flat.addAll(or.children());
            } else if (conjunction && p instanceof Predicate.And and) {
                flat.addAll(and.children());
            } else {
                flat.add(p);
            }
        }
        Predicate.Op pointOp = conjunction ? Predicate.Op.NE : Predicate.Op.EQ;
        Map<String, List<Object>> points = new LinkedHashMap<>();
        List<Predicate> out = new ArrayList<>();
        for (Predicate p : flat) {
            if (p instanceof Predicate.Compare cmp && cmp.op() == pointOp && cmp.value() != null) {
                points.computeIfAbsent(cmp.column(), k -> new ArrayList<>()).add(cmp.value());
            } else if (p instanceof Predicate.In in && in.negated() == conjunction && !in.values().contains(null)
                    && !(conjunction && in.values().isEmpty())) {
                points.computeIfAbsent(in.column(), k -> new ArrayList<>()).addAll(in.values());
            } else {
                out.add(p);
            }
        }
        for (Map.Entry<String, List<Object>> e : points.entrySet()) {
            List<Object> values = e.getValue();
            out.add(values.size() == 1
                    ? new Predicate.Compare(e.getKey(), pointOp, values.get(0))
                    : new Predicate.In(e.getKey(), values, conjunction));
        }
        return out.size() == 1 ? out.get(0) : conjunction ? Predicate.and(out) : Predicate.or(out);
    }

    /** The conjunction of {@code parts}, flattened (a null part is skipped). */
    static Predicate and(Predicate... parts) {
        List<Predicate> flat = new ArrayList<>();
        for (Predicate p : parts) {
            if (p instanceof Predicate.And and) {
                flat.addAll(and.children());
            } else if (p != null) {
                flat.add(p);
            }
        }
        return flat.size() == 1 ? flat.get(0) : Predicate.and(flat);
    }
}
