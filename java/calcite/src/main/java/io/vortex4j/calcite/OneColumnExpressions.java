package io.vortex4j.calcite;

import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Which expressions of one column may be evaluated once per dictionary entry instead of once per
 * row ({@link ColumnExpression}), and how to cut them out of a condition.
 *
 * <p>Evaluating per entry is exact for any deterministic expression that reads nothing but the
 * column, except for errors: the reader evaluates the entries a chunk holds, in dictionary order,
 * and regardless of the other conjuncts, whereas Calcite evaluates row by row, in row order, and
 * short-circuits {@code AND}/{@code OR}. An expression that can throw on some values could then
 * fail where Calcite does not, or with another value in the message. So only expressions built
 * from operators that cannot throw on any value of their operands are taken (a whitelist):
 * comparisons, boolean logic, {@code IS [NOT] NULL/TRUE/FALSE/DISTINCT FROM}, {@code IN}/ranges
 * ({@code SEARCH}), {@code CASE}/{@code COALESCE}/{@code NULLIF}, {@code UPPER}, {@code LOWER},
 * {@code INITCAP}, {@code CHAR_LENGTH}, {@code POSITION(a IN b)}, {@code REPLACE}, {@code ||},
 * {@code CONCAT}, {@code REVERSE}, {@code LEFT}, {@code RIGHT}, {@code LTRIM}/{@code RTRIM},
 * {@code TRIM} of a one-character literal, {@code SUBSTRING} with a non-negative literal length,
 * {@code LIKE}/{@code ILIKE}/{@code SIMILAR TO}/{@code RLIKE}/{@code ~} with literal patterns
 * (checked once at planning, see {@link FilterTranslator}), and casts that cannot fail (to
 * character types, and between exact numbers that always fit). Anything else — {@code CAST(s AS
 * INTEGER)}, {@code OVERLAY} (throws on short strings), arithmetic (overflow, division by zero),
 * functions of the statement's context — stays with Calcite.
 */
final class OneColumnExpressions {
    private OneColumnExpressions() {}

    /** Kinds whose operators never throw on values of valid operand types. */
    private static final Set<SqlKind> SAFE_KINDS = Set.of(
            SqlKind.AND, SqlKind.OR, SqlKind.NOT,
            SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE,
            SqlKind.IS_NOT_FALSE, SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM,
            SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL,
            SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.SEARCH,
            SqlKind.CASE, SqlKind.COALESCE, SqlKind.NULLIF, SqlKind.CHAR_LENGTH, SqlKind.LTRIM, SqlKind.RTRIM,
            SqlKind.REVERSE);

    /** Functions (by name) that never throw on strings. */
    private static final Set<String> SAFE_FUNCTIONS = Set.of(
            "UPPER", "LOWER", "INITCAP", "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH", "REPLACE", "||", "CONCAT",
            "REVERSE", "LEFT", "RIGHT", "LTRIM", "RTRIM", "STARTS_WITH", "ENDS_WITH", "STARTSWITH", "ENDSWITH");

    /** Pattern matching whose only failure is an invalid literal pattern (found once, at planning). */
    private static final Set<SqlKind> PATTERN_KINDS = Set.of(SqlKind.LIKE, SqlKind.SIMILAR, SqlKind.RLIKE,
            SqlKind.POSIX_REGEX_CASE_SENSITIVE, SqlKind.POSIX_REGEX_CASE_INSENSITIVE);

    /**
     * The index of the only input field {@code node} reads, or -1 when it reads none or several,
     * or holds anything but calls, literals and input references (parameters, correlation
     * variables, sub-queries, ...).
     */
    static int onlyInput(RexNode node) {
        int[] found = {-1};
        return scan(node, found) ? found[0] : -1;
    }

    private static boolean scan(RexNode node, int[] found) {
        if (node instanceof RexInputRef ref) {
            if (found[0] >= 0 && found[0] != ref.getIndex()) {
                return false;
            }
            found[0] = ref.getIndex();
            return true;
        }
        if (node instanceof RexLiteral) {
            return true;
        }
        if (node instanceof RexCall call) {
            for (RexNode operand : call.getOperands()) {
                if (!scan(operand, found)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** Whether every operator of {@code node} is deterministic and cannot throw (see the class comment). */
    static boolean cannotThrow(RexNode node) {
        if (node instanceof RexInputRef || node instanceof RexLiteral) {
            return true;
        }
        if (!(node instanceof RexCall call) || !call.getOperator().isDeterministic()
                || call.getOperator().isDynamicFunction()) {
            return false;
        }
        if (!operatorCannotThrow(call)) {
            return false;
        }
        for (RexNode operand : call.getOperands()) {
            if (!cannotThrow(operand)) {
                return false;
            }
        }
        return true;
    }

    private static boolean operatorCannotThrow(RexCall call) {
        SqlKind kind = call.getKind();
        String name = call.getOperator().getName();
        if (SAFE_KINDS.contains(kind)) {
            return true;
        }
        if (PATTERN_KINDS.contains(kind)) {
            // The pattern (and escape) must be literals: their validity is then checked once.
            for (int i = 1; i < call.getOperands().size(); i++) {
                if (!(call.getOperands().get(i) instanceof RexLiteral)) {
                    return false;
                }
            }
            return true;
        }
        switch (kind) {
            case CAST:
                return castCannotFail(call.getOperands().get(0).getType(), call.getType());
            case TRIM: {
                // TRIM(flag, characters, string): more than one character to trim is an error.
                RexNode chars = call.getOperands().get(1);
                return chars instanceof RexLiteral lit && lit.getValueAs(String.class) != null
                        && lit.getValueAs(String.class).length() == 1;
            }
            case POSITION:
                return call.getOperands().size() == 2;
            default:
                break;
        }
        if (name.equals("SUBSTRING")) {
            // SUBSTRING(s FROM a FOR b) rejects a negative length.
            if (call.getOperands().size() == 2) {
                return true;
            }
            RexNode length = call.getOperands().get(2);
            if (!(length instanceof RexLiteral lit)) {
                return false;
            }
            Number n = lit.getValueAs(java.math.BigDecimal.class);
            return n != null && n.doubleValue() >= 0;
        }
        return SAFE_FUNCTIONS.contains(name);
    }

    /** Casts that succeed for every value of {@code from}: to strings, and widening exact numbers. */
    static boolean castCannotFail(RelDataType from, RelDataType to) {
        if (SqlTypeUtil.isCharacter(to)) {
            return SqlTypeUtil.isCharacter(from) || SqlTypeUtil.isExactNumeric(from)
                    || from.getSqlTypeName() == SqlTypeName.BOOLEAN;
        }
        if (from.getSqlTypeName() == to.getSqlTypeName() && from.getSqlTypeName().getFamily() != SqlTypeFamily.CHARACTER
                && (from.getSqlTypeName() != SqlTypeName.DECIMAL
                    || to.getPrecision() - to.getScale() >= from.getPrecision() - from.getScale()
                       && to.getScale() >= from.getScale())) {
            return true; // a nullability or no-op cast
        }
        if (SqlTypeUtil.isIntType(from) && SqlTypeUtil.isIntType(to)) {
            return integerBits(to.getSqlTypeName()) >= integerBits(from.getSqlTypeName());
        }
        if (SqlTypeUtil.isIntType(from) && to.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return to.getPrecision() - to.getScale() >= integerDigits(from.getSqlTypeName());
        }
        if (SqlTypeUtil.isIntType(from) && (to.getSqlTypeName() == SqlTypeName.DOUBLE
                || to.getSqlTypeName() == SqlTypeName.FLOAT || to.getSqlTypeName() == SqlTypeName.REAL)) {
            return true; // rounds, never fails
        }
        return false;
    }

    private static int integerBits(SqlTypeName t) {
        switch (t) {
            case TINYINT: return 8;
            case SMALLINT: return 16;
            case INTEGER: return 32;
            default: return 64;
        }
    }

    private static int integerDigits(SqlTypeName t) {
        switch (t) {
            case TINYINT: return 3;
            case SMALLINT: return 5;
            case INTEGER: return 10;
            default: return 19;
        }
    }

    /** {@code node} with its input field {@code index} read as field 0 (the compiled function's only input). */
    static RexNode asFieldZero(RexNode node, int index) {
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.getIndex() == index ? new RexInputRef(0, ref.getType()) : ref;
            }
        });
    }
}
