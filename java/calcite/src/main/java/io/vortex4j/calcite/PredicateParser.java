package io.vortex4j.calcite;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;

/**
 * Turns a SQL condition over a file's columns ({@code sym = 'AAPL' AND price BETWEEN 100 AND
 * 200}) into the reader {@link Predicate} that selects exactly the rows SQL keeps, for the
 * command line's {@code export --where} and any caller that takes filters as text.
 *
 * <p>The condition is parsed and validated by Calcite as the WHERE clause of a query over the
 * columns (types as the adapter maps them, identifiers case-insensitive as on {@code
 * jdbc:vortex:} connections), then translated by the adapter's own exact translation of pushed
 * filters. A condition it cannot translate exactly (functions, LIKE, comparisons of two columns,
 * lossy casts, ...) is an error that says so: callers never get a predicate that selects other
 * rows than SQL would.
 */
public final class PredicateParser {
    private static final String TABLE = "t";

    private PredicateParser() {}

    /**
     * The exact predicate of {@code condition} over the columns of {@code schema}.
     *
     * @throws IllegalArgumentException if the condition is not valid SQL over these columns, or
     *     cannot be translated exactly into a reader predicate
     */
    public static Predicate parse(String condition, Schema schema) {
        List<VortexColumn> columns = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            Field f = schema.field(i);
            if (VortexColumn.isExposed(f.type())) {
                columns.add(new VortexColumn(i, f));
            }
        }
        Filter filter = filter(condition, columns);
        Predicate p = new FilterTranslator(filter.getCluster().getRexBuilder(), columns,
                SqlConformanceEnum.DEFAULT).translate(filter.getCondition());
        if (p == null) {
            throw new IllegalArgumentException("the condition '" + condition + "' cannot be translated exactly into a "
                    + "Vortex filter (supported: comparisons of a column with a literal, IN, BETWEEN, IS [NOT] NULL, "
                    + "LIKE, AND, OR, NOT and conditions on one string column; see docs/sql.md)");
        }
        return p;
    }

    /** The validated condition as the filter of a query over the columns. */
    private static Filter filter(String condition, List<VortexColumn> columns) {
        SchemaPlus root = Frameworks.createRootSchema(false);
        root.add(TABLE, new AbstractTable() {
            @Override
            public RelDataType getRowType(RelDataTypeFactory tf) {
                RelDataTypeFactory.Builder b = tf.builder();
                for (VortexColumn c : columns) {
                    b.add(c.name(), c.relType(tf));
                }
                return b.build();
            }
        });
        FrameworkConfig config = Frameworks.newConfigBuilder()
                .defaultSchema(root)
                .parserConfig(SqlParser.config()
                        .withCaseSensitive(false)
                        .withUnquotedCasing(Casing.UNCHANGED)
                        .withQuotedCasing(Casing.UNCHANGED))
                .typeSystem(VortexTypeSystem.INSTANCE)
                .build();
        Planner planner = Frameworks.getPlanner(config);
        try {
            SqlNode parsed = planner.parse("SELECT * FROM \"" + TABLE + "\" WHERE " + condition);
            RelNode rel = planner.rel(planner.validate(parsed)).project();
            while (rel instanceof Project p && isIdentity(p)) {
                rel = p.getInput();
            }
            if (!(rel instanceof Filter filter) || !(filter.getInput() instanceof TableScan)) {
                throw new IllegalArgumentException("'" + condition + "' is not a condition over the file's columns");
            }
            return filter;
        } catch (org.apache.calcite.sql.parser.SqlParseException e) {
            throw new IllegalArgumentException("cannot parse the condition '" + condition + "': " + firstLine(e.getMessage()), e);
        } catch (org.apache.calcite.tools.ValidationException | org.apache.calcite.tools.RelConversionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalArgumentException("invalid condition '" + condition + "': " + firstLine(cause.getMessage()), e);
        } finally {
            planner.close();
        }
    }

    private static boolean isIdentity(Project p) {
        List<RexNode> exprs = p.getProjects();
        if (exprs.size() != p.getInput().getRowType().getFieldCount()) {
            return false;
        }
        for (int i = 0; i < exprs.size(); i++) {
            if (!(exprs.get(i) instanceof RexInputRef ref) || ref.getIndex() != i) {
                return false;
            }
        }
        return true;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
