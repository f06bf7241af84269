package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;

/**
 * Filters on list columns the reader evaluates with vortex's list functions, taken only where
 * they answer exactly as Calcite's own code:
 *
 * <ul>
 *   <li>{@code CARDINALITY(l) op n} (either side, also in IN lists and ranges, expanded as
 *       {@link FilterTranslator} expands them) → {@link Predicate.ListLength}: Calcite's {@code
 *       CARDINALITY} is the list's size, NULL for a null list, as {@code list_length}.
 *   <li>{@code v = ANY(l)} / {@code v = SOME(l)} → {@link Predicate.ListContains} with SQL null
 *       semantics (a miss in a list holding a null element is unknown), and {@code
 *       ARRAY_CONTAINS(l, v)} (the Spark function library, {@code fun=spark}) → the same without
 *       (Calcite evaluates it as Java's {@code List.contains}: a null element never matches); a
 *       null list is NULL in both, as in vortex's {@code list_contains}. Only for integer
 *       elements and a literal of their SQL type: Calcite compares floats and decimals with
 *       Java's {@code equals} (NaN equal to NaN, -0.0 apart from 0.0, decimal scales), a literal
 *       of another type never equals an element, and string padding rules are Calcite's.
 * </ul>
 */
final class ListFilters {
    private ListFilters() {}

    /** The reader's leaf for {@code call}, or null when it is not one of the filters above. */
    static Predicate translate(RexCall call, IntFunction<VortexColumn> inputs) {
        switch (call.getKind()) {
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                return length(call, inputs);
            default:
                break;
        }
        if (call.getOperator().getName().equalsIgnoreCase("ARRAY_CONTAINS") && call.getOperands().size() == 2) {
            return contains(call.getOperands().get(0), call.getOperands().get(1), inputs, false);
        }
        if (call.getKind() == SqlKind.SOME && call.getOperator() instanceof SqlQuantifyOperator q
                && q.comparisonKind == SqlKind.EQUALS && call.getOperands().size() == 2) {
            return contains(call.getOperands().get(1), call.getOperands().get(0), inputs, true);
        }
        return null;
    }

    /** The list column whose {@code CARDINALITY} {@code node} is, or null. */
    static VortexColumn cardinalityOf(RexNode node, IntFunction<VortexColumn> inputs) {
        if (!(node instanceof RexCall call) || call.getKind() != SqlKind.OTHER_FUNCTION
                || !call.getOperator().getName().equalsIgnoreCase("CARDINALITY") || call.getOperands().size() != 1) {
            return null;
        }
        return list(call.getOperands().get(0), inputs);
    }

    private static VortexColumn list(RexNode node, IntFunction<VortexColumn> inputs) {
        if (!(node instanceof RexInputRef ref)) {
            return null;
        }
        VortexColumn c = inputs.apply(ref.getIndex());
        boolean list = c.kind() == DataType.Kind.LIST || c.kind() == DataType.Kind.FIXED_SIZE_LIST;
        return list && !c.isPartition() ? c : null;
    }

    private static Predicate length(RexCall call, IntFunction<VortexColumn> inputs) {
        List<RexNode> operands = call.getOperands();
        Predicate.Op op = ComparisonLeaves.op(call.getKind());
        VortexColumn c = cardinalityOf(operands.get(0), inputs);
        RexNode other = operands.get(1);
        if (c == null) {
            c = cardinalityOf(operands.get(1), inputs);
            other = operands.get(0);
            op = op.flip();
        }
        if (c == null || !(other instanceof RexLiteral lit) || lit.isNull()) {
            return null;
        }
        BigDecimal n = lit.getValueAs(BigDecimal.class);
        if (n == null) {
            return null;
        }
        try {
            return new Predicate.ListLength(c.name(), op, n.longValueExact());
        } catch (ArithmeticException notAnInteger) {
            return null; // a fractional or huge literal: Calcite compares it as it does
        }
    }

    private static Predicate contains(RexNode listNode, RexNode valueNode, IntFunction<VortexColumn> inputs,
            boolean sqlNulls) {
        VortexColumn c = list(listNode, inputs);
        if (c == null || !(valueNode instanceof RexLiteral lit) || lit.isNull()
                || listNode.getType().getComponentType() == null) {
            return null;
        }
        if (lit.getType().getSqlTypeName() != listNode.getType().getComponentType().getSqlTypeName()) {
            return null;
        }
        switch (c.type().element().type().kind()) {
            case INT8: case INT16: case INT32: case INT64: break;
            default: return null;
        }
        Long value = lit.getValueAs(Long.class);
        return value == null ? null : new Predicate.ListContains(c.name(), value, sqlNulls, false);
    }
}
