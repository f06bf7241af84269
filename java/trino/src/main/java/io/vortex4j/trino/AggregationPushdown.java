package io.vortex4j.trino;

import io.trino.spi.connector.AggregateFunction;
import io.trino.spi.connector.AggregationApplicationResult;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Variable;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * {@code applyAggregation}: COUNT(*), COUNT, SUM, MIN, MAX and AVG grouped by varchar, integer,
 * date and partition columns, answered by the reader's grouped aggregation. Only forms whose
 * answer equals Trino's are taken: SUM of integers and decimals (exact; an overflow fails as in
 * Trino), MIN/MAX of integers, dates and decimals, AVG of integers (the exact sum over the count;
 * Trino sums in a double, equal while the sums stay below 2^53), COUNT of any file column. Floating
 * point (summed in another order), strings' MIN/MAX, DISTINCT, FILTER and ORDER BY are left to
 * Trino, as are tables with a pushed limit or a pushed filter on a struct field. A pushed
 * aggregation runs as one split; one that may form more groups than the session allows
 * ({@link VortexSessionProperties#AGGREGATION_PUSHDOWN_MAX_GROUPS}, as {@code groups} bounds them:
 * {@link Statistics#groups}) is left to Trino, which spreads it over its workers.
 */
final class AggregationPushdown {
    private AggregationPushdown() {}

    static Optional<AggregationApplicationResult<VortexTableHandle>> apply(VortexTableHandle table,
            List<AggregateFunction> aggregates, Map<String, ColumnHandle> assignments, List<List<ColumnHandle>> groupingSets,
            long maxGroups, Function<List<VortexColumnHandle>, OptionalDouble> groups) {
        if (table.aggregation().isPresent() || table.limit().isPresent() || groupingSets.size() != 1 || filtersFieldPath(table)) {
            return Optional.empty();
        }
        List<VortexColumnHandle> groupBy = new ArrayList<>();
        for (ColumnHandle c : groupingSets.get(0)) {
            VortexColumnHandle v = (VortexColumnHandle) c;
            if (!v.partition() && !groupable(v.type())) {
                return Optional.empty();
            }
            groupBy.add(v);
        }
        if (!groupBy.isEmpty() && groups.apply(groupBy).orElse(0) > maxGroups) {
            return Optional.empty();
        }
        List<PushedAggregation.Function> functions = new ArrayList<>();
        List<ConnectorExpression> projections = new ArrayList<>();
        List<Assignment> outputs = new ArrayList<>();
        for (AggregateFunction a : aggregates) {
            Optional<PushedAggregation.Function> f = function(a, assignments);
            if (f.isEmpty()) {
                return Optional.empty();
            }
            int index = functions.size();
            functions.add(f.get());
            String name = outputName(index);
            projections.add(new Variable(name, a.getOutputType()));
            outputs.add(new Assignment(name, new AggregateColumnHandle(index, a.getOutputType()), a.getOutputType()));
        }
        VortexTableHandle pushed = table.withAggregation(new PushedAggregation(groupBy, functions));
        Map<ColumnHandle, ColumnHandle> grouping = new java.util.LinkedHashMap<>();
        groupBy.forEach(g -> grouping.put(g, g));
        return Optional.of(new AggregationApplicationResult<>(pushed, projections, outputs, grouping, false));
    }

    /**
     * Whether the pushed filter tests a struct field by its path: the reader's dataset aggregation
     * reads top-level columns only, so such a filter stays a scan and Trino aggregates.
     */
    private static boolean filtersFieldPath(VortexTableHandle table) {
        boolean domains = table.constraint().getDomains().map(d -> d.keySet().stream().anyMatch(c -> c.name().contains("."))).orElse(false);
        return domains || table.likes().stream().anyMatch(l -> l.column().name().contains("."));
    }

    /** The name of aggregate output {@code index}. */
    static String outputName(int index) {
        return "_vortex_agg_" + index;
    }

    private static Optional<PushedAggregation.Function> function(AggregateFunction a, Map<String, ColumnHandle> assignments) {
        if (a.isDistinct() || a.getFilter().isPresent() || !a.getSortItems().isEmpty()) {
            return Optional.empty();
        }
        String name = a.getFunctionName();
        List<ConnectorExpression> args = a.getArguments();
        if (args.isEmpty()) {
            return name.equals("count") ? Optional.of(new PushedAggregation.Function("count", Optional.empty(), a.getOutputType()))
                    : Optional.empty();
        }
        if (args.size() != 1 || !(args.get(0) instanceof Variable v)
                || !(assignments.get(v.getName()) instanceof VortexColumnHandle column) || column.partition()) {
            return Optional.empty();
        }
        Type t = column.type();
        boolean ok = switch (name) {
            case "count" -> a.getOutputType() instanceof BigintType && !(t instanceof RowType) && !(t instanceof ArrayType);
            case "sum" -> (isInteger(t) && a.getOutputType() instanceof BigintType) || (t instanceof DecimalType && a.getOutputType() instanceof DecimalType);
            case "min", "max" -> (isInteger(t) || t instanceof DateType || t instanceof DecimalType) && a.getOutputType().equals(t);
            case "avg" -> isInteger(t) && a.getOutputType() instanceof DoubleType;
            default -> false;
        };
        return ok ? Optional.of(new PushedAggregation.Function(name, Optional.of(column), a.getOutputType())) : Optional.empty();
    }

    private static boolean groupable(Type t) {
        return isInteger(t) || t instanceof VarcharType || t instanceof DateType;
    }

    private static boolean isInteger(Type t) {
        return t instanceof BigintType || t instanceof IntegerType || t instanceof SmallintType || t instanceof TinyintType;
    }
}
