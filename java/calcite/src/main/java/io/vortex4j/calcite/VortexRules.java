package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;

/**
 * The planner rules that push work into Vortex scans, one instance each (as Calcite's {@code
 * EnumerableRules} holds its own); the scans add {@link #rules()} to the planner of every query
 * that reads a {@link VortexPushdownTable}.
 *
 * <ul>
 *   <li>{@link #FILTER}, {@link #FILTER_IN_LIST}: the exactly translatable part of a filter into
 *       the scan ({@link VortexFilterRule}).
 *   <li>{@link #PROJECT}: the scan narrowed to the columns a projection uses ({@link
 *       VortexProjectRule}).
 *   <li>{@link #AGGREGATE}, {@link #AGGREGATE_PROJECT}: simple aggregations computed by the scan
 *       ({@link VortexAggregateRule}).
 *   <li>{@link #TOP_N}: {@code ORDER BY … LIMIT n} computed by the scan ({@link VortexTopNRule});
 *       otherwise Calcite's {@code EnumerableLimitSortRule} ({@link #rules()}) makes it Calcite's
 *       bounded top-n sort.
 *   <li>{@link #SCAN_TO_ENUMERABLE}, {@link #AGGREGATE_TO_ENUMERABLE}: the logical scans become the
 *       enumerable {@link VortexTableScan} and {@link VortexAggregateScan} ({@link
 *       VortexToEnumerableRule}).
 *   <li>{@link #IN_LIST_FILTER_TO_ENUMERABLE}: a filter on large IN lists left to Calcite becomes
 *       an {@link EnumerableInListFilter} ({@link EnumerableInListFilterRule}); the in-list filters
 *       register it themselves.
 * </ul>
 */
public final class VortexRules {
    private VortexRules() {}

    /** Pushes translatable filter conjuncts into the scan. */
    public static final RelOptRule FILTER = new VortexRuleConfig("VortexFilterRule",
            b0 -> b0.operand(LogicalFilter.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            VortexFilterRule::new).toRule();

    /** Pushes translatable conjuncts of a filter on large IN lists ({@link LargeInLists}) into the scan. */
    public static final RelOptRule FILTER_IN_LIST = new VortexRuleConfig("VortexInListFilterPushRule",
            b0 -> b0.operand(LogicalInListFilter.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            VortexFilterRule::new).toRule();

    /** Narrows the scan to the columns a projection uses. */
    public static final RelOptRule PROJECT = new VortexRuleConfig("VortexProjectRule",
            b0 -> b0.operand(LogicalProject.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            VortexProjectRule::new).toRule();

    /** Replaces simple aggregations over a fully filtered scan with a {@link LogicalVortexAggregate}. */
    public static final RelOptRule AGGREGATE = new VortexRuleConfig("VortexAggregateRule",
            b0 -> b0.operand(LogicalAggregate.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            VortexAggregateRule::new).toRule();

    /** The same through a projection: group by an expression of a string column, aggregate columns. */
    public static final RelOptRule AGGREGATE_PROJECT = new VortexRuleConfig("VortexAggregateProjectRule",
            b0 -> b0.operand(LogicalAggregate.class).oneInput(b1 -> b1.operand(LogicalProject.class)
                    .oneInput(b2 -> b2.operand(LogicalVortexScan.class).noInputs())),
            VortexAggregateRule::new).toRule();

    /** Computes {@code ORDER BY … LIMIT n} over a pushed scan inside the scan ({@link VortexTopNScan}). */
    public static final RelOptRule TOP_N = new VortexRuleConfig("VortexTopNRule",
            b0 -> b0.operand(LogicalSort.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            VortexTopNRule::new).toRule();

    /** Makes a {@link LogicalVortexScan} an enumerable {@link VortexTableScan}. */
    public static final RelOptRule SCAN_TO_ENUMERABLE = ConverterRule.Config.INSTANCE
            .withConversion(LogicalVortexScan.class, Convention.NONE, EnumerableConvention.INSTANCE, "VortexScanRule")
            .withRuleFactory(VortexToEnumerableRule::new)
            .toRule(VortexToEnumerableRule.class);

    /** Makes a logical {@link VortexAggregateScan} an enumerable one. */
    public static final RelOptRule AGGREGATE_TO_ENUMERABLE = ConverterRule.Config.INSTANCE
            .withConversion(LogicalVortexAggregate.class, Convention.NONE, EnumerableConvention.INSTANCE,
                    "VortexAggregateScanRule")
            .withRuleFactory(VortexToEnumerableRule::new)
            .toRule(VortexToEnumerableRule.class);

    /** Makes a {@link LogicalInListFilter} an {@link EnumerableInListFilter}. */
    public static final RelOptRule IN_LIST_FILTER_TO_ENUMERABLE = ConverterRule.Config.INSTANCE
            .withConversion(LogicalInListFilter.class, Convention.NONE, EnumerableConvention.INSTANCE,
                    "VortexInListFilterRule")
            .withRuleFactory(EnumerableInListFilterRule::new)
            .toRule(EnumerableInListFilterRule.class);

    /**
     * Every rule, for the cost-based planner; the scans register them. Calcite's own bounded
     * top-n is among them: {@code ORDER BY … LIMIT n} keeps the best {@code n} rows (plus the
     * offset) as rows stream by instead of sorting every row the scan produces (ties and NULL
     * ordering are Calcite's, as without the rule; it is not in Calcite's default rule set).
     * Built on first use: Calcite's enumerable rules, initialised with that one, are not needed
     * by a plan the push-down rules finish alone (a pushed aggregate, which the driver plans
     * without the cost-based planner).
     *
     * @return the rules, the same list on every call
     */
    public static List<RelOptRule> rules() {
        return Registered.RULES;
    }

    /** Holds {@link #rules()}. */
    private static final class Registered {
        static final List<RelOptRule> RULES = List.of(FILTER, FILTER_IN_LIST, PROJECT, AGGREGATE, AGGREGATE_PROJECT,
                TOP_N, SCAN_TO_ENUMERABLE, AGGREGATE_TO_ENUMERABLE, EnumerableRules.ENUMERABLE_LIMIT_SORT_RULE);
    }
}
