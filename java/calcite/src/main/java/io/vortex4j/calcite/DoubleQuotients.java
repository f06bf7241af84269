package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * Divisions typed DOUBLE over exact operands (integers or decimals: {@link VortexTypeSystem}
 * types their quotient DOUBLE, as DuckDB does) made divisions of DOUBLEs, so that every engine
 * computes the quotient it types: Calcite's generated code would divide two integers as
 * integers and widen the truncated result ({@code 7 / 8} = 0.0), and DataFusion would divide
 * decimals in DECIMAL. Division by zero stays an error on both.
 */
public final class DoubleQuotients {
    private DoubleQuotients() {}

    /** The planning step before optimization. */
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) -> of(rel);

    /** {@code rel} with its divisions typed DOUBLE dividing DOUBLEs. */
    public static RelNode of(RelNode rel) {
        RexBuilder rex = rel.getCluster().getRexBuilder();
        RexShuttle casts = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                if (visited.getKind() != SqlKind.DIVIDE || !isApproximate(visited.getType())) {
                    return visited;
                }
                RexNode a = visited.getOperands().get(0);
                RexNode b = visited.getOperands().get(1);
                if (isApproximate(a.getType()) && isApproximate(b.getType())) {
                    return visited;
                }
                RexNode quotient = rex.makeCall(visited.getType(), SqlStdOperatorTable.DIVIDE,
                        List.of(asDouble(rex, a, visited.getType()), asDouble(rex, b, visited.getType())));
                // A zero divisor keeps the exact division, which fails ("division by zero") rather
                // than giving an infinity.
                RexNode zero = rex.makeCall(SqlStdOperatorTable.EQUALS, b,
                        rex.makeZeroLiteral(b.getType()));
                return rex.makeCall(visited.getType(), SqlStdOperatorTable.CASE, List.of(zero, visited, quotient));
            }
        };
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(casts);
            }
        });
    }

    private static boolean isApproximate(RelDataType type) {
        return SqlTypeName.APPROX_TYPES.contains(type.getSqlTypeName());
    }

    private static RexNode asDouble(RexBuilder rex, RexNode e, RelDataType doubleType) {
        if (isApproximate(e.getType())) {
            return e;
        }
        RelDataType t = rex.getTypeFactory().createTypeWithNullability(doubleType, e.getType().isNullable());
        return rex.makeCast(t, e);
    }
}
