package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Constant;
import io.trino.spi.expression.Variable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.expression.StandardFunctions.AND_FUNCTION_NAME;
import static io.trino.spi.expression.StandardFunctions.LIKE_FUNCTION_NAME;

/**
 * {@code applyFilter}: the column domains {@link Filters} translates exactly and {@code column
 * LIKE 'pattern' [ESCAPE 'c']} conjuncts on varchar columns become the handle's pushed filter,
 * which the reader applies to every row (Trino drops them); the rest stays with Trino.
 */
final class FilterPushdown {
    private FilterPushdown() {}

    static Optional<ConstraintApplicationResult<VortexTableHandle>> apply(VortexTableHandle table, Constraint constraint) {
        TupleDomain<ColumnHandle> summary = constraint.getSummary();
        if (summary.isNone()) {
            return Optional.empty(); // Trino replaces the scan with no rows itself
        }
        Map<VortexColumnHandle, Domain> taken = new LinkedHashMap<>();
        Map<ColumnHandle, Domain> left = new HashMap<>();
        summary.getDomains().orElseThrow().forEach((c, d) -> {
            VortexColumnHandle column = (VortexColumnHandle) c;
            if (Filters.valuesTranslate(column, d)) {
                taken.put(column, d);
            } else {
                left.put(c, d);
            }
        });
        List<LikeFilter> likes = new ArrayList<>(table.likes());
        List<ConnectorExpression> remaining = new ArrayList<>();
        for (ConnectorExpression e : conjuncts(constraint.getExpression())) {
            Optional<LikeFilter> like = like(e, constraint.getAssignments());
            if (like.isPresent() && !likes.contains(like.get())) {
                likes.add(like.get());
            } else if (like.isEmpty()) {
                remaining.add(e);
            }
        }
        TupleDomain<VortexColumnHandle> newConstraint = table.constraint().intersect(TupleDomain.withColumnDomains(taken));
        if (newConstraint.equals(table.constraint()) && likes.equals(table.likes())) {
            return Optional.empty();
        }
        if (newConstraint.isNone()) {
            return Optional.empty();
        }
        ConnectorExpression rest = remaining.isEmpty() ? Constant.TRUE
                : remaining.size() == 1 ? remaining.get(0) : new Call(BooleanType.BOOLEAN, AND_FUNCTION_NAME, remaining);
        return Optional.of(new ConstraintApplicationResult<>(table.withFilter(newConstraint, likes),
                TupleDomain.withColumnDomains(left), rest, false));
    }

    private static List<ConnectorExpression> conjuncts(ConnectorExpression e) {
        if (e instanceof Call call && call.getFunctionName().equals(AND_FUNCTION_NAME)) {
            List<ConnectorExpression> out = new ArrayList<>();
            call.getArguments().forEach(a -> out.addAll(conjuncts(a)));
            return out;
        }
        if (e instanceof Constant c && Boolean.TRUE.equals(c.getValue())) {
            return List.of();
        }
        return List.of(e);
    }

    /** {@code e} as a LIKE the reader evaluates exactly, if it is one. */
    private static Optional<LikeFilter> like(ConnectorExpression e, Map<String, ColumnHandle> assignments) {
        if (!(e instanceof Call call) || !call.getFunctionName().equals(LIKE_FUNCTION_NAME)) {
            return Optional.empty();
        }
        List<ConnectorExpression> args = call.getArguments();
        if (args.size() < 2 || args.size() > 3 || !(args.get(0) instanceof Variable v)
                || !(assignments.get(v.getName()) instanceof VortexColumnHandle column)
                || column.partition() || !(column.type() instanceof VarcharType)) {
            return Optional.empty();
        }
        Optional<String> pattern = string(args.get(1));
        Optional<String> escape = args.size() == 3 ? string(args.get(2)) : Optional.empty();
        if (pattern.isEmpty() || (args.size() == 3 && (escape.isEmpty() || escape.get().codePointCount(0, escape.get().length()) != 1
                || escape.get().length() != 1))) {
            return Optional.empty();
        }
        try {
            new Predicate.Like(column.name(), pattern.get(), escape.map(s -> s.charAt(0)).orElse(null), false, false);
        } catch (IllegalArgumentException invalid) {
            return Optional.empty(); // Trino reports the bad pattern itself
        }
        return Optional.of(new LikeFilter(column, pattern.get(), escape));
    }

    private static Optional<String> string(ConnectorExpression e) {
        if (e instanceof Constant c && c.getValue() instanceof Slice s && c.getType() instanceof VarcharType && Filters.isUtf8(s)) {
            return Optional.of(s.toStringUtf8());
        }
        return Optional.empty();
    }
}
