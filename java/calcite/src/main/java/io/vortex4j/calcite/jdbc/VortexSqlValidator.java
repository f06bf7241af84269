package io.vortex4j.calcite.jdbc;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Calcite's validator, except that a column wins over a niladic function of the same name: in
 * Calcite, an unquoted {@code user}, {@code current_date}, {@code current_timestamp}, ... is the
 * function even when a table of the query has a column of that name, so {@code SELECT user FROM
 * t} would silently return the SQL user ({@code sa}) for every row. Here such an identifier is a
 * column reference whenever a table the statement reads has a column of that name (matched as
 * the connection matches names); where the column is not visible the query fails with Calcite's
 * "column not found", never a silent substitute. Without such a column the function is meant.
 */
final class VortexSqlValidator extends CalciteSqlValidator {
    private final CalciteCatalogReader catalog;
    /** Column names of the tables the statement reads, lower-cased when names are case-insensitive. */
    private final Set<String> columns = new HashSet<>();

    VortexSqlValidator(SqlOperatorTable opTab, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
            Config config) {
        super(opTab, catalogReader, typeFactory, config);
        this.catalog = catalogReader;
    }

    @Override
    public SqlNode validate(SqlNode topNode) {
        topNode.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                RelOptTable table = id.isStar() ? null : catalog.getTable(id.names);
                if (table != null) {
                    for (RelDataTypeField f : table.getRowType().getFieldList()) {
                        columns.add(normalized(f.getName()));
                    }
                }
                return null;
            }
        });
        return super.validate(topNode);
    }

    @Override
    public SqlCall makeNullaryCall(SqlIdentifier id) {
        if (id.names.size() == 1 && !id.isComponentQuoted(0) && columns.contains(normalized(id.getSimple()))) {
            return null;
        }
        return super.makeNullaryCall(id);
    }

    private String normalized(String name) {
        return catalog.nameMatcher().isCaseSensitive() ? name : name.toLowerCase(Locale.ROOT);
    }
}
