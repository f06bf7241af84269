package io.vortex4j.trino;

import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.FieldDereference;
import io.trino.spi.expression.Variable;
import io.trino.spi.type.RowType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code applyProjection}: a chain of field accesses on a ROW column ({@code pt.x}, {@code
 * a.b.c}) becomes a column of its own named by the dotted path, which the reader scans alone
 * (vortex reads only that field; null where a struct on the path is null, as in Trino); filters
 * on it are then pushed like filters on any column. Everything else is left as Trino wrote it.
 */
final class ProjectionPushdown {
    private ProjectionPushdown() {}

    static Optional<ProjectionApplicationResult<VortexTableHandle>> apply(VortexTableHandle table,
            List<ConnectorExpression> projections, Map<String, ColumnHandle> assignments) {
        Map<String, Assignment> used = new LinkedHashMap<>();
        boolean[] pushed = {false};
        List<ConnectorExpression> rewritten = new ArrayList<>();
        for (ConnectorExpression e : projections) {
            rewritten.add(rewrite(e, assignments, used, pushed));
        }
        if (!pushed[0]) {
            return Optional.empty();
        }
        return Optional.of(new ProjectionApplicationResult<>(table, rewritten, List.copyOf(used.values()), false));
    }

    private static ConnectorExpression rewrite(ConnectorExpression e, Map<String, ColumnHandle> assignments,
            Map<String, Assignment> used, boolean[] pushed) {
        Optional<VortexColumnHandle> path = path(e, assignments);
        if (path.isPresent() && e instanceof FieldDereference) {
            VortexColumnHandle column = path.get();
            String variable = column.name() + "#path";
            used.put(variable, new Assignment(variable, column, column.type()));
            pushed[0] = true;
            return new Variable(variable, column.type());
        }
        if (e instanceof Variable v) {
            used.put(v.getName(), new Assignment(v.getName(), assignments.get(v.getName()), v.getType()));
            return e;
        }
        if (e instanceof FieldDereference d) {
            return new FieldDereference(d.getType(), rewrite(d.getTarget(), assignments, used, pushed), d.getField());
        }
        if (e instanceof Call c) {
            List<ConnectorExpression> args = new ArrayList<>();
            for (ConnectorExpression a : c.getArguments()) {
                args.add(rewrite(a, assignments, used, pushed));
            }
            return new Call(c.getType(), c.getFunctionName(), args);
        }
        return e;
    }

    /** The file column {@code e} reads when it is a column or a chain of named field accesses on one. */
    private static Optional<VortexColumnHandle> path(ConnectorExpression e, Map<String, ColumnHandle> assignments) {
        if (e instanceof Variable v) {
            return assignments.get(v.getName()) instanceof VortexColumnHandle c && !c.partition() ? Optional.of(c) : Optional.empty();
        }
        if (!(e instanceof FieldDereference d)) {
            return Optional.empty();
        }
        return path(d.getTarget(), assignments).flatMap(base -> {
            if (!(base.type() instanceof RowType row)) {
                return Optional.empty();
            }
            Optional<String> field = row.getFields().get(d.getField()).getName();
            if (field.isEmpty() || field.get().contains(".") || base.name().contains("#")) {
                return Optional.empty(); // the reader resolves paths by dots
            }
            return Optional.of(new VortexColumnHandle(base.name() + "." + field.get(), d.getType(), false));
        });
    }
}
