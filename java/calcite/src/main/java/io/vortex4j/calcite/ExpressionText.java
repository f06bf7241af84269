package io.vortex4j.calcite;

import java.util.List;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A Calcite expression as SQL text with column names, for EXPLAIN and messages: {@code
 * UPPER(sym) = 'SYM042'} rather than the digest {@code =(UPPER($1), 'SYM042')}. Uses Calcite's
 * own RexNode-to-SQL conversion; falls back to the digest where that conversion has no form.
 */
final class ExpressionText {
    private ExpressionText() {}

    /** {@code node} as SQL, input field {@code i} named {@code names.get(i)}. */
    static String of(RexNode node, List<String> names) {
        try {
            SqlImplementor.SimpleContext context = new SqlImplementor.SimpleContext(CalciteSqlDialect.DEFAULT,
                    i -> new SqlIdentifier(names.get(i), SqlParserPos.ZERO));
            SqlNode sql = context.toSql(null, node);
            return sql.toSqlString(c -> c.withDialect(CalciteSqlDialect.DEFAULT).withQuoteAllIdentifiers(false)
                    .withAlwaysUseParentheses(false).withSelectListItemsOnSeparateLines(false)
                    .withIndentation(0)).getSql().replace('\n', ' ');
        } catch (RuntimeException e) {
            return node.toString();
        }
    }
}
