package io.vortex4j.calcite.jdbc;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * An {@code EXPLAIN} statement's result: one row per line of the plan, in one column {@value
 * #COLUMN}, as DuckDB and PostgreSQL give it ({@code EXPLAIN PLAN FOR SELECT ...} has a row per
 * operator, each indented under its parent). Calcite gives one row whose one value is the whole
 * plan, its lines joined by line breaks. A plan asked for as JSON, XML or DOT ({@code EXPLAIN
 * PLAN AS JSON FOR ...}) stays one value, a document to read whole.
 */
final class ExplainLines extends Prepare.PreparedExplain {
    /** The name of the result's column. */
    static final String COLUMN = "plan";

    private final SqlExplainFormat format;
    private final RelRoot root;
    /** Why the native engine declined the statement (said in the first line), or null. */
    private final String declined;

    ExplainLines(RelDataType rowType, RelDataType parameterRowType, RelRoot root, SqlExplainFormat format,
            SqlExplainLevel detailLevel, String declined) {
        super(rowType, parameterRowType, root, format, detailLevel);
        this.format = format;
        this.root = root;
        this.declined = declined;
    }

    /** The rows: the plan's lines, or the whole plan when it is a document. */
    List<String> lines() {
        if (root.rel instanceof NativeQuery query) {
            return query.explainLines();
        }
        String plan = getCode();
        List<String> lines = format == SqlExplainFormat.TEXT ? plan.lines().toList() : List.of(plan);
        if (declined == null) {
            return lines;
        }
        List<String> said = new ArrayList<>(lines.size() + 1);
        said.add("-- engine calcite: the native engine declined this statement: " + declined);
        said.addAll(lines);
        return said;
    }

    @Override
    public Bindable getBindable(Meta.CursorFactory cursorFactory) {
        List<String> lines = lines();
        List<Object> rows = new ArrayList<>(lines.size());
        for (String line : lines) {
            // A row is an array of its values, or the value itself, as the cursor reads it.
            rows.add(cursorFactory.style == Meta.Style.ARRAY ? new Object[] {line} : line);
        }
        return dataContext -> Linq4j.asEnumerable(rows);
    }
}
