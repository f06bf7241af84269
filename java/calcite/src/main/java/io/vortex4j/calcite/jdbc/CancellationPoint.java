package io.vortex4j.calcite.jdbc;

import io.vortex4j.calcite.PlanRewrite;
import io.vortex4j.calcite.VortexScanSpec;
import io.vortex4j.reader.Cancellation;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.tools.Program;

/**
 * Where a query checks its statement's cancel flag and timeout besides its scans: on the rows
 * leaving a join. A join can do far more work than its inputs (a self-join on a low-cardinality
 * key yields billions of pairs from rows read long before, as a merge join over two sorts does),
 * so checking only while the scans read would let such a query ignore {@code Statement.cancel}
 * and {@code setQueryTimeout}. The rows pass through unchanged; the check, every {@value
 * #CHECK_EVERY} rows, throws {@link io.vortex4j.CancelledException}, which the driver reports as
 * a cancelled or timed-out statement.
 *
 * <p>Public only for the generated code, which calls {@link #checked}.
 *
 * <p>Work inside one of Calcite's operators that yields no row (a join whose condition rejects
 * every pair) is not interrupted until it yields one or reads its input.
 */
public final class CancellationPoint extends SingleRel implements EnumerableRel {
    /** Rows between two checks (a power of two): a check is a volatile read and a clock read. */
    static final int CHECK_EVERY = 1024;

    /** The step after optimization: a cancellation point above every enumerable join. */
    static final Program PROGRAM = (planner, rel, traits, materializations, lattices) ->
            PlanRewrite.bottomUp(rel, node -> (node instanceof Join || node instanceof Correlate)
                    && node instanceof EnumerableRel ? new CancellationPoint(node.getCluster(), node.getTraitSet(), node)
                    : node);

    private CancellationPoint(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        super(cluster, traits, input);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new CancellationPoint(getCluster(), traitSet, sole(inputs));
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
        Expression rows = builder.append("rows", input.block);
        builder.add(Expressions.return_(null,
                Expressions.call(CancellationPoint.class, "checked", rows, DataContext.ROOT)));
        return implementor.result(input.physType, builder.toBlock());
    }

    /** {@code rows}, checking the cancellation of {@code root}'s statement as they are enumerated. */
    public static <T> Enumerable<T> checked(Enumerable<T> rows, DataContext root) {
        Cancellation cancellation = VortexScanSpec.cancellation(root);
        if (cancellation == Cancellation.NONE) {
            return rows;
        }
        return new AbstractEnumerable<T>() {
            @Override
            public Enumerator<T> enumerator() {
                Enumerator<T> inner = rows.enumerator();
                return new Enumerator<T>() {
                    private int sinceCheck;

                    @Override
                    public T current() {
                        return inner.current();
                    }

                    @Override
                    public boolean moveNext() {
                        if ((++sinceCheck & (CHECK_EVERY - 1)) == 0) {
                            cancellation.check();
                        }
                        return inner.moveNext();
                    }

                    @Override
                    public void reset() {
                        inner.reset();
                    }

                    @Override
                    public void close() {
                        inner.close();
                    }
                };
            }
        };
    }
}
