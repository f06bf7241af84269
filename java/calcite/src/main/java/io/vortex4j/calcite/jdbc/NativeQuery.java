package io.vortex4j.calcite.jdbc;

import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A statement's whole plan run by the native engine ({@link NativeExecution}): what optimization
 * makes of a plan the engine takes, for {@link NativeResult} to run and EXPLAIN to show.
 */
final class NativeQuery extends AbstractRelNode {
    final NativeExecution.Plan plan;

    NativeQuery(RelOptCluster cluster, RelDataType rowType, NativeExecution.Plan plan) {
        super(cluster, cluster.traitSetOf(Convention.NONE));
        this.rowType = rowType;
        this.plan = plan;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("engine", Engine.NATIVE);
    }

    /** EXPLAIN's lines: this node, then the native plan's operators under it. */
    List<String> explainLines() {
        List<String> lines = new java.util.ArrayList<>();
        lines.add("NativeQuery(engine=[native])");
        for (String line : plan.explain()) {
            lines.add("  " + line);
        }
        return lines;
    }
}
