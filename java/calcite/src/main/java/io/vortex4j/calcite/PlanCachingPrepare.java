package io.vortex4j.calcite;

import java.lang.reflect.Type;
import org.apache.calcite.avatica.Meta;

/**
 * Calcite's statement preparation, answering a query it has prepared before on the same
 * connection from the {@link PlanCache}. Only queries ({@code SELECT}, {@code EXPLAIN}, …) are
 * cached: their plan is re-executable, and Calcite's prepared statements already execute one plan
 * many times. DDL runs while it is prepared, so it is never cached, and like DML it may change the
 * schemas, so it empties the cache.
 */
final class PlanCachingPrepare extends VortexPrepare {
    private final PlanCache cache;

    PlanCachingPrepare(PlanCache cache) {
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
            cache.put(key, plan);
        } else {
            cache.clear();
        }
        return plan;
    }
}
