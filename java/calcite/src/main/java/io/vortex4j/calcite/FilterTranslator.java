package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformance;

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
 *       translated; equalities on one column become {@code IN}, inequalities {@code NOT IN}
 *       ({@link InListMerging}).
 *   <li>Comparisons of a column with a literal or parameter ({@link ComparisonLeaves}). Numbers
 *       compare by exact value in the reader. A column wrapped in a CAST is accepted only when the
 *       cast cannot change any value of the column ({@link LosslessCasts}: e.g. TINYINT to
 *       INTEGER, INTEGER to DOUBLE, never BIGINT to DOUBLE). Literals are taken as Calcite's
 *       generated code takes them ({@link LiteralValues}: a DOUBLE literal as the nearest double,
 *       a REAL one as the nearest float).
 *   <li>Floating-point columns: Java comparisons treat NaN as unordered and -0.0 as equal to 0.0,
 *       the reader orders them totally; leaves on zero and {@code >}/{@code >=} leaves are
 *       rewritten so that both agree (e.g. {@code x > 1} becomes {@code x > 1 AND x <= +Inf}).
 *   <li>Strings: equality always; ordering only when the literal has no character at or above
 *       U+D800, since Calcite orders strings by UTF-16 unit and the reader by code point, which
 *       differ only there.
 *   <li>DATE is exact; TIME and TIMESTAMP columns whose unit is finer than milliseconds are seen by
 *       Calcite truncated to milliseconds, so comparisons become ranges of raw values.
 *   <li>{@code LIKE} with a literal pattern becomes the reader's LIKE leaf where the two agree
 *       exactly ({@link LikeLeaves}).
 *   <li>Conditions on list columns ({@link ListFilters}).
 *   <li>Any other condition (or AND/OR/NOT subtree) whose only input is one string column, e.g.
 *       {@code UPPER(city) = 'OSLO'}, {@code ILIKE}, or a string ordering the reader would order
 *       differently, becomes a {@link Predicate.Computed} leaf running Calcite's own generated
 *       code for it once per dictionary entry ({@link ComputedLeaf}), when it cannot throw.
 * </ul>
 *
 * <p>Anything else (comparisons of two columns, lossy casts, expressions of other types or
 * that may throw, ...) is declined and stays in Calcite's plan.
 */
final class FilterTranslator {
    private final RexBuilder rexBuilder;
    private final List<VortexColumn> inputs;
    private final SqlConformance conformance;
    private final FilterOperands operands;
    private final ComparisonLeaves comparisons;

    /**
     * A translator for conditions over rows whose field {@code i} is {@code inputs.get(i)};
     * {@code conformance} is the statement's, for compiling expressions as Calcite would.
     */
    FilterTranslator(RexBuilder rexBuilder, List<VortexColumn> inputs, SqlConformance conformance) {
        this.rexBuilder = rexBuilder;
        this.inputs = inputs;
        this.conformance = conformance;
        this.operands = new FilterOperands(rexBuilder, inputs);
        this.comparisons = new ComparisonLeaves(operands);
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
        return p != null ? p : ComputedLeaf.of(rexBuilder, node, inputs, conformance);
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
                return children == null ? null : InListMerging.merged(children, true);
            }
            case OR: {
                List<Predicate> children = children(call);
                return children == null ? null : InListMerging.merged(children, false);
            }
            case NOT: {
                Predicate child = node(call.getOperands().get(0));
                return child == null ? null : Predicate.not(child);
            }
            case SEARCH: {
                if (operands.column(call.getOperands().get(0)) == null
                        && ListFilters.cardinalityOf(call.getOperands().get(0), inputs::get) == null) {
                    return null; // an IN list of an expression: one computed leaf, not one per value
                }
                RexNode expanded = RexUtil.expandSearch(rexBuilder, null, call);
                return expanded.getKind() == SqlKind.SEARCH ? null : node(expanded);
            }
            case LIKE:
                return LikeLeaves.like(call, operands);
            case IS_NULL:
            case IS_NOT_NULL: {
                VortexColumn c = operands.column(call.getOperands().get(0));
                return c == null ? null : new Predicate.IsNull(c.name(), call.getKind() == SqlKind.IS_NOT_NULL);
            }
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                return comparisons.comparison(call);
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
