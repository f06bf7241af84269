package io.vortex4j.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.NlsString;

/** The operands a filter leaf compares: a column of the scan, a literal. */
final class FilterOperands {
    private final RexBuilder rexBuilder;
    private final List<VortexColumn> inputs;

    /** Operands of conditions over rows whose field {@code i} is {@code inputs.get(i)}. */
    FilterOperands(RexBuilder rexBuilder, List<VortexColumn> inputs) {
        this.rexBuilder = rexBuilder;
        this.inputs = inputs;
    }

    /** The column behind {@code node}: an input reference, or one under casts that keep every value. */
    VortexColumn column(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return inputs.get(ref.getIndex());
        }
        if (node.getKind() == SqlKind.CAST && node instanceof RexCall cast) {
            VortexColumn c = column(cast.getOperands().get(0));
            if (c != null && cast.getOperands().get(0) instanceof RexInputRef
                    && LosslessCasts.keepsValues(c, cast.getType())) {
                return c;
            }
        }
        return null;
    }

    /** The literal {@code node} is, or reduces to (a CAST of a literal); null otherwise. */
    RexLiteral literal(RexNode node) {
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

    /** The value of a non-null CHAR/VARCHAR literal, else null. */
    static String stringLiteral(RexNode node) {
        if (node instanceof RexLiteral lit && !lit.isNull() && lit.getValue() instanceof NlsString s) {
            return s.getValue();
        }
        return null;
    }
}
