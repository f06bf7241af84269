package io.vortex4j.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Sarg;

/**
 * Large IN lists, kept as one predicate: Calcite turns an IN list of more than {@code
 * inSubQueryThreshold} (20) values into a join with VALUES, and a list it keeps expands, in its
 * generated code, into one comparison per value; with thousands of values either way Janino
 * fails ("code grows beyond 64 KB") or the code generator overflows its stack. {@code
 * jdbc:vortex:} connections raise the threshold, so lists stay {@code SEARCH} predicates, and
 * this program, run before Calcite's optimizer, moves each filter conjunct holding a list of more than {@value
 * #LARGE} values into a {@link LogicalInListFilter}, which Calcite evaluates with a hash set
 * ({@link InListRowTest}) and which push-down puts into the Vortex scan as one {@code IN}
 * predicate. Smaller lists are left to Calcite.
 */
public final class LargeInLists {
    /** Lists with more values than this are evaluated with a hash set. */
    static final int LARGE = 256;

    private LargeInLists() {}

    /** The program step: large lists of every filter of the plan moved into {@link LogicalInListFilter}s. */
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) ->
            PlanRewrite.bottomUp(rel, node -> node instanceof LogicalFilter filter ? split(filter) : node);

    /** {@code filter} with its conjuncts holding large lists in a {@link LogicalInListFilter} below the others. */
    private static RelNode split(LogicalFilter filter) {
        RexNode condition = filter.getCondition();
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        RexNode simplified = condition;
        if (!hasLargeList(condition, rexBuilder)) {
            if (RexUtil.nodeCount(List.of(condition)) <= LARGE) {
                return filter;
            }
            // A list SQL-to-rel left as an OR of equalities: Calcite's simplification makes it a SEARCH.
            simplified = new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR)
                    .simplifyUnknownAsFalse(condition);
        }
        List<RexNode> large = new ArrayList<>();
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(simplified)) {
            // Sub-queries and correlation variables are for Calcite's later programs, which only see Filters.
            boolean movable = RexUtil.SubQueryFinder.find(conjunct) == null && !RexUtil.containsCorrelation(conjunct);
            (movable && hasLargeList(conjunct, rexBuilder) ? large : rest).add(conjunct);
        }
        if (large.isEmpty()) {
            return filter;
        }
        RelNode lists = new LogicalInListFilter(filter.getCluster(), filter.getTraitSet().replace(Convention.NONE),
                filter.getInput(), RexUtil.composeConjunction(rexBuilder, large));
        return rest.isEmpty() ? lists : LogicalFilter.create(lists, RexUtil.composeConjunction(rexBuilder, rest));
    }

    /** Whether {@code node} holds a list of more than {@value #LARGE} values that {@link InSet} evaluates. */
    static boolean hasLargeList(RexNode node, RexBuilder rexBuilder) {
        Boolean found = node.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitCall(RexCall call) {
                if (isLargeList(call, rexBuilder)) {
                    return true;
                }
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }

    private static boolean isLargeList(RexCall call, RexBuilder rexBuilder) {
        if (call.getKind() != SqlKind.SEARCH || !(call.getOperands().get(0) instanceof RexInputRef)
                || !(call.getOperands().get(1) instanceof RexLiteral lit)) {
            return false;
        }
        Sarg<?> sarg = lit.getValueAs(Sarg.class);
        return sarg != null && sarg.rangeSet.asRanges().size() > LARGE && InSet.of(call, rexBuilder) != null;
    }
}
