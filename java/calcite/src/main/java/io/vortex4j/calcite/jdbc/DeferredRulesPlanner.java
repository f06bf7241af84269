package io.vortex4j.calcite.jdbc;

import java.util.List;
import org.apache.calcite.plan.Context;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelNode;

/**
 * Calcite's cost-based planner with its default rules registered when it is first asked to plan,
 * not when it is created. Every statement gets a planner before it is parsed, but a statement
 * that is one pushed aggregate is planned without it ({@link DirectOptimization}); in a fresh JVM
 * (every one-shot {@code bin/vortex4j sql}) registering the ~150 default rules, most of them
 * initialised on first use, is a large part of such a query's time.
 *
 * <p>The rules are registered before anything is registered with the planner (a rule added later
 * would not see the nodes already there) and before they are listed or removed; {@link #clear()}
 * drops them unregistered, as it drops registered ones.
 */
final class DeferredRulesPlanner extends VolcanoPlanner {
    /** Registers the default rules; null once done (or cleared). */
    private Runnable pending;

    /**
     * @param costFactory the cost factory, or null for Volcano's
     * @param context the planner's context
     * @param defaultRules registers the default rules with the planner it is given
     */
    DeferredRulesPlanner(RelOptCostFactory costFactory, Context context,
            java.util.function.Consumer<VolcanoPlanner> defaultRules) {
        super(costFactory, context);
        this.pending = () -> defaultRules.accept(this);
    }

    private void registerRules() {
        Runnable r = pending;
        if (r != null) {
            pending = null;
            r.run();
        }
    }

    @Override
    public void setRoot(RelNode rel) {
        registerRules();
        super.setRoot(rel);
    }

    @Override
    public RelNode changeTraits(RelNode rel, RelTraitSet toTraits) {
        registerRules();
        return super.changeTraits(rel, toTraits);
    }

    @Override
    public RelSubset register(RelNode rel, RelNode equivRel) {
        registerRules();
        return super.register(rel, equivRel);
    }

    @Override
    public RelSubset ensureRegistered(RelNode rel, RelNode equivRel) {
        registerRules();
        return super.ensureRegistered(rel, equivRel);
    }

    @Override
    public RelNode findBestExp() {
        registerRules();
        return super.findBestExp();
    }

    @Override
    public List<RelOptRule> getRules() {
        registerRules();
        return super.getRules();
    }

    @Override
    public boolean removeRule(RelOptRule rule) {
        registerRules();
        return super.removeRule(rule);
    }

    @Override
    public void clear() {
        pending = null;
        super.clear();
    }
}
