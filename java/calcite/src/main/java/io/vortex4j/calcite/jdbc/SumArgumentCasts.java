package io.vortex4j.calcite.jdbc;

import io.vortex4j.calcite.PlanRewrite;
import io.vortex4j.calcite.VortexTypeSystem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.Program;

/**
 * The last step of planning with {@link VortexTypeSystem}: {@code SUM} and {@code $SUM0} of a
 * BIGINT argument have type DECIMAL(38, 0) there, and Calcite's code generator (1.42) adds such
 * an argument to the BigDecimal accumulator with {@code BigDecimal.add(long)}, which does not
 * exist, so the plan fails to compile. These steps cast those arguments to DECIMAL(19, 0) (every
 * BIGINT fits), which makes the generated addition exact BigDecimal arithmetic; the aggregates'
 * types are unchanged. Aggregates are fixed after optimization ({@link #AGGREGATES}: a projection
 * below each enumerable aggregate), since the optimizer creates sums of its own (AVG becomes SUM
 * / COUNT); window aggregates before it ({@link #WINDOWS}: the argument of the {@code OVER} call).
 */
final class SumArgumentCasts {
    private SumArgumentCasts() {}

    /** The step after optimization: arguments of enumerable aggregates. */
    static final Program AGGREGATES = (planner, rel, traits, materializations, lattices) ->
            PlanRewrite.bottomUp(rel, node -> node instanceof Aggregate aggregate && node instanceof EnumerableRel
                    ? castArguments(aggregate) : node);

    /** The step before optimization: arguments of window aggregates. */
    static final Program WINDOWS = (planner, rel, traits, materializations, lattices) ->
            PlanRewrite.bottomUp(rel, SumArgumentCasts::castWindowArguments);

    private static RelNode castWindowArguments(RelNode node) {
        RexBuilder rexBuilder = node.getCluster().getRexBuilder();
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                RexNode visited = super.visitOver(over);
                if (!(visited instanceof RexOver o)) {
                    return visited;
                }
                SqlKind kind = o.getAggOperator().getKind();
                if ((kind == SqlKind.SUM || kind == SqlKind.SUM0) && o.getOperands().size() == 1
                        && o.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                        && SqlTypeUtil.isIntType(o.getOperands().get(0).getType())) {
                    RexWindow w = o.getWindow();
                    return rexBuilder.makeOver(o.getParserPosition(), o.getType(), o.getAggOperator(),
                            List.of(toDecimal(rexBuilder, o.getOperands().get(0))), w.partitionKeys, w.orderKeys,
                            w.getLowerBound(), w.getUpperBound(), w.getExclude(), w.isRows(), true, false,
                            o.isDistinct(), o.ignoreNulls());
                }
                return o;
            }
        });
    }

    /** {@code value}, an integer, as DECIMAL(19, 0) (of the same nullability). */
    private static RexNode toDecimal(RexBuilder rexBuilder, RexNode value) {
        RelDataType decimal = rexBuilder.getTypeFactory().createTypeWithNullability(
                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, 19, 0), value.getType().isNullable());
        return rexBuilder.makeCast(decimal, value);
    }

    /** Whether Calcite's code for {@code call} would add an integer argument to a BigDecimal. */
    private static boolean needsCast(AggregateCall call, RelDataType input) {
        SqlKind kind = call.getAggregation().getKind();
        return (kind == SqlKind.SUM || kind == SqlKind.SUM0) && call.getArgList().size() == 1
                && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                && SqlTypeUtil.isIntType(input.getFieldList().get(call.getArgList().get(0)).getType());
    }

    private static RelNode castArguments(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        RelDataType inputType = input.getRowType();
        if (aggregate.getAggCallList().stream().noneMatch(c -> needsCast(c, inputType))) {
            return aggregate;
        }
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        List<RexNode> projects = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RelDataTypeField f : inputType.getFieldList()) {
            projects.add(new RexInputRef(f.getIndex(), f.getType()));
            names.add(f.getName());
        }
        Map<Integer, Integer> casted = new HashMap<>();
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (!needsCast(call, inputType)) {
                calls.add(call);
                continue;
            }
            int arg = call.getArgList().get(0);
            int field = casted.computeIfAbsent(arg, a -> {
                projects.add(toDecimal(rexBuilder, new RexInputRef(a, inputType.getFieldList().get(a).getType())));
                names.add("$sum" + a);
                return projects.size() - 1;
            });
            calls.add(call.withArgList(List.of(field)));
        }
        RelNode calc = EnumerableCalc.create(input, RexProgram.create(inputType, projects, null, names, rexBuilder));
        return aggregate.copy(aggregate.getTraitSet(), calc, aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
    }
}
