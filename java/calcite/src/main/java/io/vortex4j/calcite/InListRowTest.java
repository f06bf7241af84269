package io.vortex4j.calcite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Predicate1;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformance;

/**
 * A filter condition holding large IN lists, as Calcite's own code with each list replaced by a
 * hash-set test ({@link InSet}): the lists become extra boolean fields of the row, computed by
 * the sets, and the rest of the condition is compiled by Calcite ({@link CalciteCode}) over the
 * row with those fields. Rows arrive as Calcite's enumerables produce them: an {@code Object[]}
 * of values, or the bare value of a one-field row. {@link #bind} gives the test for one
 * execution, reading parameters and the like from its {@link DataContext}.
 *
 * <p>Public only because Calcite's generated code, which holds it, lives in another class.
 */
public final class InListRowTest {
    private final Function1<Object, Object> code;
    private final InSet[] sets;
    private final int[] operands;
    private final int width;
    private final boolean scalar;

    private InListRowTest(Function1<Object, Object> code, InSet[] sets, int[] operands, int width, boolean scalar) {
        this.code = code;
        this.sets = sets;
        this.operands = operands;
        this.width = width;
        this.scalar = scalar;
    }

    /**
     * The test of {@code condition} over rows of type {@code rowType} ({@code scalar}: rows are
     * bare values); every list {@link InSet} can evaluate whose operand is a field becomes a set
     * test.
     */
    static InListRowTest of(RexNode condition, RelDataType rowType, boolean scalar, RexBuilder rexBuilder,
            SqlConformance conformance) {
        int n = rowType.getFieldCount();
        List<InSet> sets = new ArrayList<>();
        List<Integer> operands = new ArrayList<>();
        RelDataTypeFactory tf = rexBuilder.getTypeFactory();
        RelDataType bool = tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BOOLEAN), true);
        RexNode rewritten = condition.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                if (call.getKind() == SqlKind.SEARCH && call.getOperands().get(0) instanceof RexInputRef ref) {
                    InSet set = InSet.of(call, rexBuilder);
                    if (set != null) {
                        sets.add(set);
                        operands.add(ref.getIndex());
                        return new RexInputRef(n + sets.size() - 1, bool);
                    }
                }
                return super.visitCall(call);
            }
        });
        RelDataTypeFactory.Builder extended = tf.builder().addAll(rowType.getFieldList());
        for (int k = 0; k < sets.size(); k++) {
            extended.add("$in" + k, bool);
        }
        Function1<Object, Object> code = CalciteCode.compileWithContext(rexBuilder, rewritten, extended.build(),
                conformance);
        return new InListRowTest(code, sets.toArray(new InSet[0]), operands.stream().mapToInt(i -> i).toArray(),
                n + sets.size(), scalar);
    }

    /**
     * The row predicate of one execution (TRUE selects, FALSE and unknown reject); called by
     * generated code.
     *
     * @param root the execution's context (parameters, current time, ...)
     * @return a predicate on the execution's rows
     */
    public Predicate1<Object> bind(DataContext root) {
        return row -> {
            Object[] values = scalar ? new Object[] {row} : (Object[]) row;
            Object[] extended = Arrays.copyOf(values, width + 1);
            int n = values.length;
            for (int k = 0; k < sets.length; k++) {
                extended[n + k] = sets[k].test(values[operands[k]]);
            }
            extended[width] = root;
            return Boolean.TRUE.equals(code.apply(extended));
        };
    }
}
