package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformance;

/**
 * A condition no native leaf expresses, evaluated by the reader once per dictionary entry with
 * Calcite's own generated code for it.
 */
final class ComputedLeaf {
    private ComputedLeaf() {}

    /**
     * {@code node}, a condition reading one string column, as a {@link Predicate.Computed} leaf
     * whose test is Calcite's own generated code for it ({@link ColumnExpression}), evaluated by
     * the reader once per dictionary entry. Only conditions that cannot throw ({@link
     * OneColumnExpressions#cannotThrow}) and that compile without the statement's context (see
     * {@link ColumnExpression#ofStringColumn}). Null when not possible.
     */
    static Predicate of(RexBuilder rexBuilder, RexNode node, List<VortexColumn> inputs, SqlConformance conformance) {
        if (node.getType().getSqlTypeName() != SqlTypeName.BOOLEAN) {
            return null;
        }
        ColumnExpression test = ColumnExpression.ofStringColumn(rexBuilder, node, inputs::get, conformance);
        return test == null ? null
                : new Predicate.Computed(test.column().name(), ExpressionText.of(node, names(inputs)), test, false);
    }

    /** The input field names, for describing expressions. */
    private static List<String> names(List<VortexColumn> inputs) {
        List<String> names = new ArrayList<>(inputs.size());
        for (VortexColumn c : inputs) {
            names.add(c.name());
        }
        return names;
    }
}
