package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code Filter(LogicalVortexScan)} → the conjuncts {@link FilterTranslator} translates exactly go
 * into the scan; the others stay in a Filter above, large IN lists ({@link LargeInLists}) in a
 * {@link LogicalInListFilter} of their own. The same for a {@link LogicalInListFilter} on the scan
 * ({@link VortexRules#FILTER}, {@link VortexRules#FILTER_IN_LIST}).
 */
final class VortexFilterRule extends RelRule<VortexRuleConfig> {
    VortexFilterRule(VortexRuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        RelNode filter = call.rel(0);
        RexNode condition = filter instanceof LogicalFilter f ? f.getCondition() : ((LogicalInListFilter) filter).condition;
        LogicalVortexScan scan = call.rel(1);
        // Struct fields (t.st.y) become path columns the predicates name ("st.y").
        FieldPaths paths = new FieldPaths(scan, ImmutableBitSet.of());
        List<RexNode> conjuncts = RelOptUtil.conjunctions(condition);
        List<RexNode> rewritten = new ArrayList<>();
        for (RexNode conjunct : conjuncts) {
            rewritten.add(paths.rewrite(conjunct));
        }
        List<VortexColumn> inputs = new ArrayList<>();
        for (int f : paths.fields()) {
            inputs.add(scan.vortexTable.column(f));
        }
        FilterTranslator translator = new FilterTranslator(filter.getCluster().getRexBuilder(), inputs,
                StatementConformance.of(call.getPlanner()));
        List<Predicate> pushed = new ArrayList<>();
        List<RexNode> remaining = new ArrayList<>();
        for (int i = 0; i < conjuncts.size(); i++) {
            RexNode conjunct = conjuncts.get(i);
            Predicate p = translator.translate(rewritten.get(i));
            if (p == null) {
                remaining.add(conjunct);
            } else {
                pushed.add(p);
            }
        }
        if (pushed.isEmpty()) {
            return;
        }
        List<Predicate> all = new ArrayList<>();
        if (scan.filter != null) {
            all.add(scan.filter);
        }
        all.addAll(pushed);
        RelNode result = scan.withFilter(FilterTranslator.and(all.toArray(new Predicate[0])));
        // What stays with Calcite: large IN lists in their own filter (see LargeInLists), the rest in a Filter.
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        List<RexNode> lists = new ArrayList<>();
        List<RexNode> rest = new ArrayList<>();
        for (RexNode r : remaining) {
            (LargeInLists.hasLargeList(r, rexBuilder) ? lists : rest).add(r);
        }
        if (!lists.isEmpty()) {
            result = new LogicalInListFilter(filter.getCluster(), filter.getTraitSet(), result,
                    RexUtil.composeConjunction(rexBuilder, lists));
        }
        if (!rest.isEmpty()) {
            result = call.builder().push(result).filter(rest).build();
        }
        call.transformTo(result);
    }
}
