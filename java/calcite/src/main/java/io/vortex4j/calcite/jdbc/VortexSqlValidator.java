package io.vortex4j.calcite.jdbc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * Calcite's validator with three changes. {@code date_trunc('unit', x)} is {@link
 * DialectFunctions}'s, not the BigQuery form the parser reads. Result columns the statement does
 * not name are named by their expression's text ({@link ColumnNames}: {@code count(*)}, not {@code EXPR$0}). And a
 * column wins over a niladic function of the same name: in Calcite, an unquoted {@code user},
 * {@code current_date}, {@code current_timestamp}, ... is the function even when a table of the
 * query has a column of that name, so {@code SELECT user FROM t} would silently return the SQL
 * user ({@code sa}) for every row. Here such an identifier is a column reference whenever a table
 * the statement reads has a column of that name (matched as the connection matches names); where
 * the column is not visible the query fails with Calcite's "column not found", never a silent
 * substitute. Without such a column the function is meant.
 */
final class VortexSqlValidator extends CalciteSqlValidator {
    private final CalciteCatalogReader catalog;
    /** The statement's text, which names its result columns; null when there is none. */
    private final String sql;
    /** Column names of the tables the statement reads, lower-cased when names are case-insensitive. */
    private final Set<String> columns = new HashSet<>();

    VortexSqlValidator(SqlOperatorTable opTab, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
            Config config, String sql) {
        super(opTab, catalogReader, typeFactory, config);
        this.catalog = catalogReader;
        this.sql = sql;
    }

    @Override
    protected SqlNode performUnconditionalRewrites(SqlNode node, boolean underFrom) {
        DialectFunctions.claim(node);
        return super.performUnconditionalRewrites(node, underFrom);
    }

    @Override
    public SqlNode validate(SqlNode topNode) {
        if (sql != null) {
            nameColumns(topNode);
        }
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

    /**
     * Gives each unnamed select item of every SELECT in {@code top} its name ({@link
     * ColumnNames}) with AS. In the SELECTs whose rows are the statement's result, names may
     * repeat, as in DuckDB; in the others (sub-queries, whose columns the statement refers to by
     * name) an item whose name another item of its SELECT has keeps Calcite's.
     */
    private void nameColumns(SqlNode top) {
        Set<SqlSelect> results = new HashSet<>();
        results(top, results);
        top.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    SqlNodeList items = select.getSelectList();
                    List<String> names = new ArrayList<>();
                    for (SqlNode item : items) {
                        String name = ColumnNames.of(item, sql);
                        names.add(name != null ? name : SqlValidatorUtil.alias(item));
                    }
                    for (int i = 0; i < items.size(); i++) {
                        String name = ColumnNames.of(items.get(i), sql);
                        if (name != null && (results.contains(select) || occurrences(names, name) == 1)) {
                            SqlNode item = items.get(i);
                            items.set(i, SqlStdOperatorTable.AS.createCall(item.getParserPosition(), item,
                                    new SqlIdentifier(name, SqlParserPos.ZERO)));
                        }
                    }
                }
                return super.visit(call);
            }
        });
    }

    /** Adds the SELECTs whose rows are the rows of {@code query} to {@code out}. */
    private static void results(SqlNode query, Set<SqlSelect> out) {
        if (query instanceof SqlSelect select) {
            out.add(select);
        } else if (query instanceof SqlOrderBy orderBy) {
            results(orderBy.query, out);
        } else if (query instanceof SqlWith with) {
            results(with.body, out);
        } else if (query instanceof SqlExplain explain) {
            results(explain.getExplicandum(), out);
        } else if (query != null && query.getKind().belongsTo(SqlKind.SET_QUERY)) {
            for (SqlNode operand : ((SqlCall) query).getOperandList()) {
                results(operand, out);
            }
        }
    }

    /** How many of {@code names} match {@code name} as the connection matches names. */
    private int occurrences(List<String> names, String name) {
        int n = 0;
        for (String other : names) {
            n += other != null && normalized(other).equals(normalized(name)) ? 1 : 0;
        }
        return n;
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
