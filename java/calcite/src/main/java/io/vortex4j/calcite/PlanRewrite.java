package io.vortex4j.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.RelNode;

/**
 * Bottom-up rewriting of a plan, for program steps that rewrite every node of a kind: {@link
 * LargeInLists} here, and the driver's steps before and after optimization.
 */
public final class PlanRewrite {
    private PlanRewrite() {}

    /** {@code rel} with {@code step} applied to every node, inputs first (a node is copied when an input changed). */
    public static RelNode bottomUp(RelNode rel, UnaryOperator<RelNode> step) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : rel.getInputs()) {
            RelNode r = bottomUp(input, step);
            changed |= r != input;
            inputs.add(r);
        }
        return step.apply(changed ? rel.copy(rel.getTraitSet(), inputs) : rel);
    }
}
