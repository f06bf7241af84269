package io.vortex4j.calcite.jdbc;

import io.vortex4j.calcite.DoubleQuotients;
import io.vortex4j.calcite.LargeInLists;
import io.vortex4j.calcite.PathTables;
import io.vortex4j.calcite.VortexAggregateScan;
import io.vortex4j.calcite.VortexTypeSystem;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.calcite.DataContexts;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteSystemProperty;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * How {@code jdbc:vortex:} connections prepare statements: Calcite's way, with ten changes.
 *
 * <ul>
 *   <li>A statement may end with {@code ;} ({@link Statements#withoutTerminator}).
 *   <li>The validator lets columns win over niladic functions of the same name ({@link
 *       VortexSqlValidator}: {@code SELECT user FROM t} reads the column {@code user}).
 *   <li>Result columns the statement does not name are named by their expression's text
 *       ({@link ColumnNames}: {@code count(*)}, {@code a + b}; {@code SELECT 1} has the column
 *       {@code 1}).
 *   <li>EXPLAIN gives a row per line of the plan, in the column {@code plan} ({@link ExplainLines}).
 *   <li>IN lists stay IN lists however long ({@code inSubQueryThreshold} raised from 20), so that
 *       they can be pushed into the scan; lists too long for Calcite's generated code are
 *       evaluated with a hash set ({@link LargeInLists}).
 *   <li>SUM of BIGINT, which {@link VortexTypeSystem} makes DECIMAL(38, 0), is made compilable
 *       ({@link SumArgumentCasts}).
 *   <li>A parse error says where it is and which token the parser stopped at ({@link
 *       SyntaxError}); at a reserved word, how to use it as a name: quoted.
 *   <li>Rows leaving a join check the statement's cancel flag and timeout ({@link
 *       CancellationPoint}), as scans do.
 *   <li>A plan that is one pushed aggregate is found by the push-down rules alone ({@link
 *       DirectOptimization}), Calcite's default rules registered only for the other plans ({@link
 *       DeferredRulesPlanner}), and runs without generated code ({@link DirectPlan}).
 *   <li>With {@code engine=native} ({@link Engine}), any other query goes to the native engine
 *       ({@link NativeExecution}) as one {@link NativeQuery}, unless the engine declines it; so
 *       does a pushed aggregate folding decimals ({@link VortexAggregateScan#foldsDecimals}).
 * </ul>
 */
class VortexPrepare extends CalcitePrepareImpl {
    /**
     * The statements Calcite answers without parsing them ({@code CalcitePrepareImpl}'s private
     * list, as of Calcite 1.42) that are a SELECT of the constant 1: their column is {@code 1}.
     */
    private static final Set<String> SELECT_ONE =
            Set.of("SELECT 1", "select 1", "SELECT 1 FROM DUAL", "select 1 from dual");

    /**
     * The text of the statement being prepared, which names its result columns ({@link
     * ColumnNames}). An instance prepares one statement: the driver makes one per statement.
     */
    private String sql;
    /** Whether the statement being prepared is an EXPLAIN ({@link ExplainLines}). */
    private boolean explain;

    /** Which engine runs the statements: the native engine where it takes them ({@link NativeExecution}). */
    private final Engine engine;
    /** Why the native engine declined the statement being prepared, for EXPLAIN; else null. */
    private String declined;

    /** For Calcite's prepare factory. */
    VortexPrepare(Engine engine) {
        this.engine = engine;
    }

    @Override
    public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
        if (query.sql != null) {
            String text = PathTables.register(context, Statements.withoutTerminator(query.sql));
            query = text.equals(query.sql) ? query : Query.of(text);
        }
        sql = query.sql;
        explain = false;
        declined = null;
        CalciteSignature<T> signature;
        try {
            signature = super.prepareSql(context, query, elementType, maxRowCount);
        } catch (RuntimeException e) {
            SyntaxError syntax = query.sql == null ? null : SyntaxError.of(e, query.sql, parserConfig(context));
            throw syntax == null ? e : syntax;
        }
        if (explain) {
            return Signatures.renamed(signature, List.of(ExplainLines.COLUMN), context.getTypeFactory());
        }
        if (query.sql != null && SELECT_ONE.contains(query.sql) && signature.columns.size() == 1) {
            return Signatures.renamed(signature, List.of("1"), context.getTypeFactory());
        }
        return signature;
    }

    /** The parser settings of the connection, as {@code prepare2_} builds them. */
    private SqlParser.Config parserConfig(Context context) {
        CalciteConnectionConfig config = context.config();
        SqlParser.Config parserConfig = parserConfig().withQuotedCasing(config.quotedCasing())
                .withUnquotedCasing(config.unquotedCasing()).withQuoting(config.quoting())
                .withConformance(config.conformance()).withCaseSensitive(config.caseSensitive());
        org.apache.calcite.sql.parser.SqlParserImplFactory factory =
                config.parserFactory(org.apache.calcite.sql.parser.SqlParserImplFactory.class, null);
        return factory == null ? parserConfig : parserConfig.withParserFactory(factory);
    }

    /**
     * Calcite's planner ({@code CalcitePrepareImpl.createPlanner}, without its Spark handler:
     * {@code jdbc:vortex:} connections never enable it), its default rules deferred ({@link
     * DeferredRulesPlanner}).
     */
    @Override
    protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext,
            org.apache.calcite.plan.Context externalContext, RelOptCostFactory costFactory) {
        CalciteConnectionConfig config = prepareContext.config();
        org.apache.calcite.plan.Context context = externalContext != null ? externalContext : Contexts.of(config);
        boolean materializations = config.materializationsEnabled();
        boolean bindable = enableBindable;
        VolcanoPlanner planner = new DeferredRulesPlanner(costFactory, context, p -> {
            RelOptUtil.registerDefaultRules(p, materializations, bindable);
            // Calcite's merge join claims its output sorted on the right keys of a LEFT join,
            // whose NULLs break that order; a merge join above it then drops rows. Hash joins
            // make no such claim.
            p.removeRule(EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE);
        });
        planner.setExecutor(new RexExecutorImpl(DataContexts.EMPTY));
        planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
        if (CalciteSystemProperty.ENABLE_COLLATION_TRAIT.value()) {
            planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
        }
        planner.setTopDownOpt(config.topDownOpt());
        Hook.PLANNER.run(planner);
        return planner;
    }

    @Override
    protected org.apache.calcite.plan.RelOptCluster createCluster(org.apache.calcite.plan.RelOptPlanner planner,
            org.apache.calcite.rex.RexBuilder rexBuilder) {
        return InterpretedMetadata.apply(super.createCluster(planner, rexBuilder));
    }

    @Override
    protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
            CalciteCatalogReader catalogReader, RelOptPlanner planner) {
        JavaTypeFactory typeFactory = context.getTypeFactory();
        EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
                : EnumerableRel.Prefer.CUSTOM;
        Convention convention = enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE;
        return new VortexPreparingStmt(this, context, catalogReader, typeFactory, prefer,
                createCluster(planner, new RexBuilder(typeFactory)), convention, sql);
    }

    /** Calcite's statement preparation with the changes listed on {@link VortexPrepare}. */
    static final class VortexPreparingStmt extends CalcitePreparingStmt {
        private final VortexPrepare vortexPrepare;
        /** The statement's text, for its validator (the first one: others validate views' SQL); then null. */
        private String sql;

        VortexPreparingStmt(VortexPrepare prepare, Context context, CalciteCatalogReader catalogReader,
                JavaTypeFactory typeFactory, EnumerableRel.Prefer prefer, org.apache.calcite.plan.RelOptCluster cluster,
                Convention convention, String sql) {
            super(prepare, context, catalogReader, typeFactory, context.getRootSchema(), prefer, cluster, convention,
                    prepare.createConvertletTable());
            this.vortexPrepare = prepare;
            this.sql = sql;
        }

        /** The plan of an EXPLAIN as one row per line ({@link ExplainLines}). */
        @Override
        protected PreparedResult createPreparedExplanation(RelDataType resultType, RelDataType parameterRowType,
                RelRoot root, SqlExplainFormat format, SqlExplainLevel detailLevel) {
            vortexPrepare.explain = true;
            return new ExplainLines(resultType, parameterRowType, root, format, detailLevel, vortexPrepare.declined);
        }

        /** Calcite's validator set-up ({@code CalcitePrepareImpl.createSqlValidator}) with {@link VortexSqlValidator}. */
        @Override
        protected SqlValidator createSqlValidator(Prepare.CatalogReader catalogReader,
                UnaryOperator<SqlValidator.Config> configTransform) {
            CalciteConnectionConfig config = context.config();
            List<SqlOperatorTable> tables = new ArrayList<>();
            tables.add(config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()));
            tables.add(DialectFunctions.table());
            tables.add(catalogReader);
            SqlValidator.Config validatorConfig = configTransform.apply(SqlValidator.Config.DEFAULT
                    .withLenientOperatorLookup(config.lenientOperatorLookup())
                    .withConformance(GroupByAliases.of(config))
                    .withDefaultNullCollation(config.defaultNullCollation())
                    .withIdentifierExpansion(true));
            String text = sql;
            sql = null;
            return new VortexSqlValidator(SqlOperatorTables.chain(tables), (CalciteCatalogReader) catalogReader,
                    context.getTypeFactory(), validatorConfig, text);
        }

        @Override
        protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator, Prepare.CatalogReader catalogReader,
                SqlToRelConverter.Config config) {
            // IN lists stay IN lists (SEARCH) instead of joins with VALUES; see LargeInLists.
            return super.getSqlToRelConverter(validator, catalogReader,
                    config.withInSubQueryThreshold(Integer.MAX_VALUE));
        }

        /** A plan that is one pushed aggregate, found without the cost-based planner ({@link DirectOptimization}). */
        @Override
        protected RelRoot optimize(RelRoot root, List<Prepare.Materialization> materializations,
                List<CalciteSchema.LatticeEntry> lattices) {
            if (materializations.isEmpty() && lattices.isEmpty()) {
                RelOptPlanner planner = root.rel.getCluster().getPlanner();
                RelNode rel = LargeInLists.PROGRAM.run(planner, root.rel, root.rel.getTraitSet(), List.of(), List.of());
                RelNode direct = DirectOptimization.of(root.withRel(rel), planner,
                        new RexExecutorImpl(context.getDataContext()));
                // On the native engine, a pushed aggregate folding decimals runs there instead.
                boolean nativeFirst = direct != null && vortexPrepare.engine == Engine.NATIVE
                        && ((VortexAggregateScan) direct).foldsDecimals();
                if (direct != null && !nativeFirst) {
                    return root.withRel(direct);
                }
                RelRoot natively = nativePlan(root);
                if (natively != null) {
                    return natively;
                }
                if (direct != null) {
                    return root.withRel(direct);
                }
            }
            return super.optimize(root, materializations, lattices);
        }

        /**
         * The statement as one {@link NativeQuery} when the connection's engine is native and the
         * engine takes it; else null (the reason kept for EXPLAIN), and Calcite plans it.
         */
        private RelRoot nativePlan(RelRoot root) {
            if (vortexPrepare.engine != Engine.NATIVE || !root.kind.belongsTo(org.apache.calcite.sql.SqlKind.QUERY)) {
                return null;
            }
            NativeExecution execution = NativeExecution.find();
            if (execution == null) {
                vortexPrepare.declined = "the native engine (module engine) is not on the class path";
                return null;
            }
            NativeExecution.Plan plan = execution.plan(root, context);
            if (plan.declined() != null) {
                vortexPrepare.declined = plan.declined();
                return null;
            }
            NativeQuery query = new NativeQuery(root.rel.getCluster(), root.validatedRowType, plan);
            return RelRoot.of(query, root.validatedRowType, root.kind);
        }

        /** A plan that is one pushed aggregate runs without generated code ({@link DirectPlan}). */
        @Override
        protected PreparedResult implement(RelRoot root) {
            NativeResult natively = NativeResult.of(root, parameterRowType, fieldOrigins);
            if (natively != null) {
                return natively;
            }
            DirectPlan direct = DirectPlan.of(root, parameterRowType, fieldOrigins);
            return direct != null ? direct : super.implement(root);
        }

        @Override
        protected Program getProgram() {
            return Programs.sequence(LargeInLists.PROGRAM, DoubleQuotients.PROGRAM, SumArgumentCasts.WINDOWS, super.getProgram(),
                    SumArgumentCasts.AGGREGATES, CancellationPoint.PROGRAM);
        }
    }
}
