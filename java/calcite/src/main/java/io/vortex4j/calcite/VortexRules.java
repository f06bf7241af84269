package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The planner rules that push work into Vortex scans; the scans add them to the planner of every
 * query that reads a {@link VortexPushdownTable}.
 *
 * <ul>
 *   <li>{@link #FILTER}: {@code Filter(LogicalVortexScan)} → the conjuncts {@link
 *       FilterTranslator} translates exactly go into the scan; the others stay in a Filter above.
 *       {@link #FILTER_IN_LIST} does the same for a filter on large IN lists ({@link LargeInLists}).
 *   <li>{@link #PROJECT}: {@code Project(LogicalVortexScan)} → the scan reads only the columns the
 *       projection uses.
 *   <li>{@link #AGGREGATE}: {@code Aggregate(LogicalVortexScan)}, when the scan's filter was pushed
 *       whole (no Filter left between them), group columns of the files or partition columns
 *       (any number) and only COUNT(*),
 *       COUNT(c), SUM(c), $SUM0(c), MIN(c), MAX(c) without DISTINCT or FILTER → a {@link
 *       LogicalVortexAggregate}.
 *   <li>{@link #AGGREGATE_PROJECT}: the same over {@code Project(LogicalVortexScan)}, whose group
 *       may be an expression of one string column (e.g. {@code GROUP BY UPPER(sym)}), computed by
 *       Calcite's own code once per dictionary entry.
 *   <li>{@link #TOP_N}: {@code Sort(LogicalVortexScan)} with a row count ({@code ORDER BY … LIMIT n
 *       [OFFSET m]}) over columns of the files → a {@link VortexTopNScan}, the top-n computed
 *       inside the scan.
 *   <li>Calcite's {@code EnumerableLimitSortRule} ({@link #rules()}): otherwise, {@code ORDER BY … LIMIT n}
 *       as Calcite's bounded top-n sort.
 *   <li>{@link #SCAN_TO_ENUMERABLE}, {@link #AGGREGATE_TO_ENUMERABLE}: the logical scans become the
 *       enumerable {@link VortexTableScan} and {@link VortexAggregateScan}.
 * </ul>
 */
public final class VortexRules {
    private VortexRules() {}

    /** Pushes translatable filter conjuncts into the scan. */
    public static final RelOptRule FILTER = new RuleConfig("VortexFilterRule",
            b0 -> b0.operand(LogicalFilter.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            FilterRule::new).toRule();

    /** Pushes translatable conjuncts of a filter on large IN lists ({@link LargeInLists}) into the scan. */
    public static final RelOptRule FILTER_IN_LIST = new RuleConfig("VortexInListFilterPushRule",
            b0 -> b0.operand(LogicalInListFilter.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            FilterRule::new).toRule();

    /** Narrows the scan to the columns a projection uses. */
    public static final RelOptRule PROJECT = new RuleConfig("VortexProjectRule",
            b0 -> b0.operand(LogicalProject.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            ProjectRule::new).toRule();

    /** Replaces simple aggregations over a fully filtered scan with a {@link LogicalVortexAggregate}. */
    public static final RelOptRule AGGREGATE = new RuleConfig("VortexAggregateRule",
            b0 -> b0.operand(LogicalAggregate.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            AggregateRule::new).toRule();

    /** The same through a projection: group by an expression of a string column, aggregate columns. */
    public static final RelOptRule AGGREGATE_PROJECT = new RuleConfig("VortexAggregateProjectRule",
            b0 -> b0.operand(LogicalAggregate.class).oneInput(b1 -> b1.operand(LogicalProject.class)
                    .oneInput(b2 -> b2.operand(LogicalVortexScan.class).noInputs())),
            AggregateRule::new).toRule();

    /** Computes {@code ORDER BY … LIMIT n} over a pushed scan inside the scan ({@link VortexTopNScan}). */
    public static final RelOptRule TOP_N = new RuleConfig("VortexTopNRule",
            b0 -> b0.operand(LogicalSort.class).oneInput(b1 -> b1.operand(LogicalVortexScan.class).noInputs()),
            TopNRule::new).toRule();

    /** Makes a {@link LogicalVortexScan} an enumerable {@link VortexTableScan}. */
    public static final RelOptRule SCAN_TO_ENUMERABLE = ConverterRule.Config.INSTANCE
            .withConversion(LogicalVortexScan.class, Convention.NONE, EnumerableConvention.INSTANCE, "VortexScanRule")
            .withRuleFactory(ToEnumerable::new)
            .toRule(ToEnumerable.class);

    /** Makes a logical {@link VortexAggregateScan} an enumerable one. */
    public static final RelOptRule AGGREGATE_TO_ENUMERABLE = ConverterRule.Config.INSTANCE
            .withConversion(LogicalVortexAggregate.class, Convention.NONE, EnumerableConvention.INSTANCE,
                    "VortexAggregateScanRule")
            .withRuleFactory(ToEnumerable::new)
            .toRule(ToEnumerable.class);

    /**
     * Every rule, for the cost-based planner; the scans register them. Calcite's own bounded
     * top-n is among them: {@code ORDER BY … LIMIT n} keeps the best {@code n} rows (plus the
     * offset) as rows stream by instead of sorting every row the scan produces (ties and NULL
     * ordering are Calcite's, as without the rule; it is not in Calcite's default rule set).
     * Built on first use: Calcite's enumerable rules, initialised with that one, are not needed
     * by a plan found with the push-down rules alone ({@link DirectOptimization}).
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

    /** The statement's SQL conformance (as Calcite's code generator gets it), from the planner's context. */
    static SqlConformance conformance(RelOptPlanner planner) {
        CalciteConnectionConfig config = planner.getContext().maybeUnwrap(CalciteConnectionConfig.class).orElse(null);
        return config == null ? SqlConformanceEnum.DEFAULT : config.conformance();
    }

    /** Converts a logical Vortex scan or aggregate to its enumerable form. */
    static final class ToEnumerable extends ConverterRule {
        ToEnumerable(ConverterRule.Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            if (rel instanceof LogicalVortexScan s) {
                return new VortexTableScan(s.getCluster(), s.getTable(), s.vortexTable, s.fields, s.filter);
            }
            LogicalVortexAggregate a = (LogicalVortexAggregate) rel;
            return new VortexAggregateScan(a.getCluster(), a.getTable(), a.vortexTable, a.filter, a.keys, a.calls,
                    a.outputType, a.groups);
        }
    }

    /** A hand-written rule configuration (Calcite's own use generated immutable classes). */
    static final class RuleConfig implements RelRule.Config {
        private final String description;
        private final RelRule.OperandTransform operands;
        private final RelBuilderFactory relBuilderFactory;
        private final Function<RuleConfig, RelOptRule> factory;

        RuleConfig(String description, RelRule.OperandTransform operands, Function<RuleConfig, RelOptRule> factory) {
            this(description, operands, RelFactories.LOGICAL_BUILDER, factory);
        }

        private RuleConfig(String description, RelRule.OperandTransform operands, RelBuilderFactory relBuilderFactory,
                Function<RuleConfig, RelOptRule> factory) {
            this.description = description;
            this.operands = operands;
            this.relBuilderFactory = relBuilderFactory;
            this.factory = factory;
        }

        @Override
        public RelOptRule toRule() {
            return factory.apply(this);
        }

        @Override
        public RelBuilderFactory relBuilderFactory() {
            return relBuilderFactory;
        }

        @Override
        public RelRule.Config withRelBuilderFactory(RelBuilderFactory f) {
            return new RuleConfig(description, operands, f, factory);
        }

        @Override
        public @Nullable String description() {
            return description;
        }

        @Override
        public RelRule.Config withDescription(@Nullable String d) {
            return new RuleConfig(d, operands, relBuilderFactory, factory);
        }

        @Override
        public RelRule.OperandTransform operandSupplier() {
            return operands;
        }

        @Override
        public RelRule.Config withOperandSupplier(RelRule.OperandTransform transform) {
            return new RuleConfig(description, transform, relBuilderFactory, factory);
        }
    }

    /** See {@link #FILTER}. */
    static final class FilterRule extends RelRule<RuleConfig> {
        FilterRule(RuleConfig config) {
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
                    conformance(call.getPlanner()));
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

    /** See {@link #PROJECT}. */
    static final class ProjectRule extends RelRule<RuleConfig> {
        ProjectRule(RuleConfig config) {
            super(config);
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            LogicalProject project = call.rel(0);
            LogicalVortexScan scan = call.rel(1);
            List<RexNode> exprs = project.getProjects();
            // Struct fields (t.st.x) read alone by path, unless the projection also needs the whole struct.
            FieldPaths paths = new FieldPaths(scan, ImmutableBitSet.of());
            List<RexNode> byPath = new ArrayList<>();
            for (RexNode e : exprs) {
                byPath.add(paths.rewrite(e));
            }
            if (paths.added()) {
                ImmutableBitSet whole = RelOptUtil.InputFinder.bits(byPath, null)
                        .intersect(ImmutableBitSet.range(scan.fields.length));
                paths = new FieldPaths(scan, whole);
                byPath.clear();
                for (RexNode e : exprs) {
                    byPath.add(paths.rewrite(e));
                }
                if (paths.added()) {
                    scan = scan.withFields(paths.fields());
                    exprs = byPath;
                }
            }
            boolean allRefs = !exprs.isEmpty() && exprs.stream().allMatch(e -> e instanceof RexInputRef);
            if (allRefs) {
                // A plain selection of columns: the scan produces exactly them.
                int[] fields = new int[exprs.size()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = scan.fields[((RexInputRef) exprs.get(i)).getIndex()];
                }
                call.transformTo(scan.withFields(fields));
                return;
            }
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(exprs, null);
            if (used.cardinality() == scan.fields.length) {
                if (scan != call.rel(1)) {
                    call.transformTo(call.builder().push(scan).project(exprs, project.getRowType().getFieldNames(), true)
                            .build());
                }
                return;
            }
            if (used.isEmpty()) {
                // Nothing is read (e.g. SELECT 1 or COUNT(*) above): one column gives the row count.
                if (scan.fields.length == 1) {
                    return;
                }
                used = ImmutableBitSet.of(0);
            }
            int[] fields = new int[used.cardinality()];
            Mappings.TargetMapping mapping = Mappings.create(org.apache.calcite.util.mapping.MappingType.INVERSE_SURJECTION,
                    scan.fields.length, fields.length);
            int k = 0;
            for (int i : used) {
                fields[k] = scan.fields[i];
                mapping.set(i, k);
                k++;
            }
            LogicalVortexScan newScan = scan.withFields(fields);
            RexPermuteInputsShuttle shuttle = new RexPermuteInputsShuttle(mapping, newScan);
            List<RexNode> newExprs = new ArrayList<>();
            for (RexNode e : exprs) {
                newExprs.add(e.accept(shuttle));
            }
            RelBuilder b = call.builder();
            call.transformTo(b.push(newScan).project(newExprs, project.getRowType().getFieldNames(), true).build());
        }
    }

    /** See {@link #TOP_N}. */
    static final class TopNRule extends RelRule<RuleConfig> {
        TopNRule(RuleConfig config) {
            super(config);
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            LogicalSort sort = call.rel(0);
            LogicalVortexScan scan = call.rel(1);
            RelCollation collation = sort.getCollation();
            VortexTopNSpec.Bound fetch = bound(sort.fetch);
            VortexTopNSpec.Bound offset = sort.offset == null ? VortexTopNSpec.Bound.constant(0) : bound(sort.offset);
            if (collation.getFieldCollations().isEmpty() || fetch == null || offset == null) {
                return; // no order (a plain LIMIT), no row count, or one given by an expression
            }
            for (RelFieldCollation fc : collation.getFieldCollations()) {
                RelFieldCollation.Direction d = fc.getDirection();
                if (d != RelFieldCollation.Direction.ASCENDING && d != RelFieldCollation.Direction.DESCENDING
                        || !sortable(scan.column(fc.getFieldIndex()))) {
                    return;
                }
            }
            call.transformTo(new VortexTopNScan(scan.getCluster(), scan.getTable(), scan.vortexTable, scan.fields,
                    scan.filter, collation, fetch, offset));
        }

        /** A literal or JDBC parameter row count or offset; null for anything else. */
        private static VortexTopNSpec.Bound bound(RexNode n) {
            if (n instanceof RexDynamicParam p) {
                return new VortexTopNSpec.Bound(0, p.getIndex());
            }
            if (n instanceof RexLiteral l) {
                Number v = l.getValueAs(java.math.BigDecimal.class);
                return v == null || v.longValue() < 0 ? null : VortexTopNSpec.Bound.constant(v.longValue());
            }
            return null;
        }

        /**
         * Whether the reader orders {@code c}'s values as Calcite orders its internal values (the
         * natural order of Long, Double, String, BigDecimal, ...; see {@link
         * io.vortex4j.reader.exec.TopN}): every file column but nested ones and dtypes the reader does
         * not read. TIME/TIMESTAMP finer than milliseconds are ordered by millisecond, as Calcite
         * sees them ({@link VortexTopNScan#sortKeys}).
         */
        static boolean sortable(VortexColumn c) {
            switch (c.kind()) {
                case STRUCT:
                case LIST:
                case FIXED_SIZE_LIST:
                case UNSUPPORTED:
                    return false;
                default:
                    return !c.isPartition();
            }
        }
    }

    /** See {@link #AGGREGATE}. */
    static final class AggregateRule extends RelRule<RuleConfig> {
        AggregateRule(RuleConfig config) {
            super(config);
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            LogicalAggregate aggregate = call.rel(0);
            LogicalProject project = call.rels.length == 3 ? call.rel(1) : null;
            LogicalVortexScan scan = call.rel(call.rels.length - 1);
            if (aggregate.getGroupType() != Aggregate.Group.SIMPLE
                    || aggregate.getRowType().getFieldCount() == 0 || readsPaths(scan)) {
                return;
            }
            // The aggregate's input fields: columns of the scan, or (through a projection) expressions of them.
            IntFunction<VortexColumn> column = i -> project == null ? scan.column(i)
                    : project.getProjects().get(i) instanceof RexInputRef ref ? scan.column(ref.getIndex()) : null;
            // Group columns (file or partition columns), or a single expression of a string column.
            List<VortexAggregateSpec.Group> keys = new ArrayList<>();
            for (int g : aggregate.getGroupSet()) {
                VortexColumn c = column.apply(g);
                VortexAggregateSpec.Group key = c != null ? (groupable(c) ? VortexAggregateSpec.Group.of(c) : null)
                        : aggregate.getGroupCount() == 1
                        ? expressionGroup(project.getProjects().get(g), scan, conformance(call.getPlanner())) : null;
                if (key == null) {
                    return;
                }
                keys.add(key);
            }
            List<VortexAggregateSpec.Call> calls = new ArrayList<>();
            for (AggregateCall ac : aggregate.getAggCallList()) {
                VortexAggregateSpec.Call c = pushable(ac, column);
                if (c == null) {
                    return;
                }
                calls.add(c);
            }
            Double groups = call.getMetadataQuery().getRowCount(aggregate);
            call.transformTo(new LogicalVortexAggregate(scan.getCluster(), scan.getTable(), scan.vortexTable,
                    scan.filter, keys, calls, aggregate.getRowType(), groups == null ? 1 : Math.max(1, groups)));
        }

        /**
         * Whether {@code scan} reads or filters struct fields by path, which the reader's
         * aggregation does not take: such aggregates stay with Calcite over the scan.
         */
        static boolean readsPaths(LogicalVortexScan scan) {
            for (int i = 0; i < scan.fields.length; i++) {
                if (scan.column(i).isPath()) {
                    return true;
                }
            }
            if (scan.filter != null) {
                for (String c : scan.filter.columns()) {
                    if (scan.vortexTable.dataset().schema().indexOf(c) < 0) {
                        return true;
                    }
                }
            }
            return false;
        }

        /**
         * Grouping by {@code expr}, an expression of one string column of {@code scan} that cannot
         * throw ({@link OneColumnExpressions#cannotThrow}): its key is Calcite's own code for it,
         * computed once per dictionary entry ({@link ColumnExpression}). Null when not possible.
         */
        static VortexAggregateSpec.Group expressionGroup(RexNode expr, LogicalVortexScan scan,
                SqlConformance conformance) {
            ColumnExpression key = ColumnExpression.ofStringColumn(scan.getCluster().getRexBuilder(), expr,
                    scan::column, conformance);
            if (key == null || key.column().isPartition()) {
                return null;
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < scan.fields.length; i++) {
                names.add(scan.column(i).name());
            }
            return new VortexAggregateSpec.Group(key.column(), key, ExpressionText.of(expr, names));
        }

        /**
         * Whether grouping by the reader's values of {@code c} forms the same groups as Calcite's
         * values: not for TIME/TIMESTAMP finer than milliseconds, which Calcite truncates.
         */
        static boolean groupable(VortexColumn c) {
            DataType.Kind k = c.kind();
            if (k == DataType.Kind.TIME || k == DataType.Kind.TIMESTAMP) {
                DataType.TimeUnit u = c.type().unit();
                return u == DataType.TimeUnit.SECONDS || u == DataType.TimeUnit.MILLISECONDS;
            }
            return true;
        }

        /** The pushed form of {@code ac}, or null when the reader would not give Calcite's answer. */
        static VortexAggregateSpec.Call pushable(AggregateCall ac, IntFunction<VortexColumn> column) {
            if (ac.isDistinct() || ac.filterArg >= 0 || !ac.getCollation().getFieldCollations().isEmpty()
                    || !ac.rexList.isEmpty() || ac.ignoreNulls()) {
                return null;
            }
            SqlKind kind = ac.getAggregation().getKind();
            List<Integer> args = ac.getArgList();
            org.apache.calcite.sql.type.SqlTypeName resultType = ac.getType().getSqlTypeName();
            int scale = ac.getType().getScale();
            if (kind == SqlKind.COUNT && args.isEmpty()) {
                return new VortexAggregateSpec.Call(VortexAggregateSpec.Function.COUNT_STAR, null, resultType, scale);
            }
            if (args.size() != 1) {
                return null;
            }
            VortexColumn c = column.apply(args.get(0));
            if (c == null || c.isPartition()) {
                return null; // the reader aggregates file columns; a partition column's values are its folders'
            }
            DataType.Kind k = c.kind();
            switch (kind) {
                case COUNT:
                    return new VortexAggregateSpec.Call(VortexAggregateSpec.Function.COUNT, c, resultType, scale);
                case SUM:
                case SUM0: {
                    // Integers and decimals sum exactly; doubles in row order as Calcite does; REAL is
                    // summed in float by Calcite, which the reader's double sum would not reproduce.
                    boolean ok = k.isInteger() || k == DataType.Kind.DECIMAL || k == DataType.Kind.FLOAT64;
                    if (!ok) {
                        return null;
                    }
                    switch (resultType) {
                        case TINYINT: case SMALLINT: case INTEGER: case BIGINT: case DOUBLE: case DECIMAL:
                            break;
                        default:
                            return null;
                    }
                    if ((resultType == org.apache.calcite.sql.type.SqlTypeName.DOUBLE) != (k == DataType.Kind.FLOAT64)) {
                        return null;
                    }
                    return new VortexAggregateSpec.Call(kind == SqlKind.SUM ? VortexAggregateSpec.Function.SUM
                            : VortexAggregateSpec.Function.SUM0, c, resultType, scale);
                }
                case MIN:
                case MAX: {
                    // Calcite orders strings by UTF-16 unit (the reader by code point) and ignores NaN
                    // order-dependently; those stay with Calcite.
                    if (k == DataType.Kind.UTF8 || k == DataType.Kind.FLOAT16 || k == DataType.Kind.FLOAT32
                            || k == DataType.Kind.FLOAT64 || k == DataType.Kind.NULL) {
                        return null;
                    }
                    return new VortexAggregateSpec.Call(kind == SqlKind.MIN ? VortexAggregateSpec.Function.MIN
                            : VortexAggregateSpec.Function.MAX, c, resultType, scale);
                }
                default:
                    return null;
            }
        }
    }
}
