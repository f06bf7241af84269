package io.vortex4j.calcite.jdbc;

import java.lang.reflect.Type;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Calcite's statement preparation, answering a query it has prepared before on the same
 * connection from the {@link PlanCache}. Only queries ({@code SELECT}, {@code EXPLAIN}, …) are
 * cached: their plan is re-executable, and Calcite's prepared statements already execute one plan
 * many times. DDL runs while it is prepared, so it is never cached, and like DML it may change the
 * schemas, so it empties the cache.
 *
 * <p>The cache never keeps a broken plan. A statement that fails to prepare (parse, validate,
 * plan or compile) is not cached. A compiled plan whose generated code fails to initialize (a
 * constant expression such as {@code 1/0} or {@code CAST('abc' AS BIGINT)} is evaluated in a
 * static initializer: {@link ExceptionInInitializerError}, then {@link NoClassDefFoundError} on
 * every later use of the class) is dropped the first time it fails, so running the query again
 * plans it again and fails with the same error, not a different one.
 */
final class PlanCachingPrepare extends VortexPrepare {
    private final PlanCache cache;

    PlanCachingPrepare(PlanCache cache, Engine engine) {
        super(engine);
        this.cache = cache;
    }

    @Override
    public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
        if (query.sql == null || elementType != Object[].class) {
            return super.prepareSql(context, query, elementType, maxRowCount);
        }
        PlanCache.Key key = new PlanCache.Key(query.sql, context.getDefaultSchemaPath(), maxRowCount);
        @SuppressWarnings("unchecked")
        CalciteSignature<T> cached = (CalciteSignature<T>) cache.get(key);
        if (cached != null) {
            return cached;
        }
        CalciteSignature<T> plan = super.prepareSql(context, query, elementType, maxRowCount);
        if (plan.statementType == Meta.StatementType.SELECT) {
            Guarded<T> guarded = new Guarded<>(plan, cache, key);
            cache.put(key, guarded);
            return guarded;
        }
        cache.clear();
        return plan;
    }

    /** A cached plan that leaves the cache when its generated code turns out unusable. */
    static final class Guarded<T> extends CalciteSignature<T> {
        private final CalciteSignature<T> plan;
        private final PlanCache cache;
        private final PlanCache.Key key;

        Guarded(CalciteSignature<T> plan, PlanCache cache, PlanCache.Key key) {
            super(plan.sql, plan.parameters, plan.internalParameters, plan.rowType, plan.columns,
                    plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, null, plan.statementType);
            this.plan = plan;
            this.cache = cache;
            this.key = key;
        }

        @Override
        public Enumerable<T> enumerable(DataContext dataContext) {
            Enumerable<T> rows = guard(() -> plan.enumerable(dataContext));
            return new AbstractEnumerable<T>() {
                @Override
                public Enumerator<T> enumerator() {
                    return guard(rows::enumerator);
                }
            };
        }

        /** Runs {@code step}; on a class that cannot initialize, forgets the plan and rethrows. */
        private <R> R guard(java.util.function.Supplier<R> step) {
            try {
                return step.get();
            } catch (LinkageError e) {
                cache.remove(key, this);
                throw e;
            }
        }
    }
}
