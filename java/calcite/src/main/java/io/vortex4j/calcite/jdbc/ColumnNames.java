package io.vortex4j.calcite.jdbc;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The name of a result column the statement does not name, as DuckDB gives it: the expression's
 * text as written ({@code SELECT count(*), sum(x), a + b} has the columns {@code count(*)},
 * {@code sum(x)} and {@code a + b}), each run of blanks outside quotes made one space and none
 * left just inside brackets.
 * Calcite would call them {@code EXPR$0}, {@code EXPR$1}, .... A column named in the statement
 * ({@code AS}) or a column reference ({@code x}, {@code t.x}: {@code x}) keeps its name; names
 * may repeat ({@code SELECT sum(x), sum(x)}).
 *
 * <p>Where the parser's position of an expression does not cover exactly its text (a few
 * operators record only part of it), the name is the expression as Calcite writes it.
 */
final class ColumnNames {
    private ColumnNames() {}

    /** Writes an expression with names quoted only where they must be, their case kept. */
    private static final SqlDialect DIALECT = new SqlDialect(SqlDialect.EMPTY_CONTEXT
            .withIdentifierQuoteString("\"").withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED));

    /**
     * The name for the select item {@code item} of a statement whose text is {@code sql}, or null
     * when the item keeps the name Calcite gives it (it has an alias, or is a column or {@code *}).
     */
    static String of(SqlNode item, String sql) {
        if (item instanceof SqlIdentifier || item.getKind() == SqlKind.AS) {
            return null;
        }
        String text = text(item.getParserPosition(), sql);
        if (text == null) {
            text = item.toSqlString(c -> c.withDialect(DIALECT).withQuoteAllIdentifiers(false)).getSql();
        }
        return normalized(text);
    }

    /** The text of {@code sql} at {@code pos}, or null when that is not the text of a whole expression. */
    static String text(SqlParserPos pos, String sql) {
        if (pos == null || pos.getLineNum() < 1 || pos.getEndLineNum() < pos.getLineNum()) {
            return null;
        }
        int start = SyntaxError.offset(sql, pos.getLineNum(), pos.getColumnNum());
        int end = SyntaxError.offset(sql, pos.getEndLineNum(), pos.getEndColumnNum());
        if (start < 0 || end < start || end >= sql.length()) {
            return null;
        }
        String text = sql.substring(start, end + 1);
        return balanced(text) ? text : null;
    }

    /**
     * Whether {@code text} can be a whole expression: it starts with neither a blank nor a comma,
     * and its quotes are closed and its brackets paired.
     */
    private static boolean balanced(String text) {
        if (text.isEmpty() || Character.isWhitespace(text.charAt(0)) || text.charAt(0) == ',') {
            return false;
        }
        StringBuilder open = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closing(text, i);
                if (end < 0) {
                    return false;
                }
                i = end;
            } else if (c == '(' || c == '[' || c == '{') {
                open.append(c);
            } else if (c == ')' || c == ']' || c == '}') {
                char expected = c == ')' ? '(' : c == ']' ? '[' : '{';
                if (open.length() == 0 || open.charAt(open.length() - 1) != expected) {
                    return false;
                }
                open.setLength(open.length() - 1);
            }
        }
        return open.length() == 0;
    }

    /** The index of the quote closing the one at {@code i} (a doubled quote stands for itself), or -1. */
    private static int closing(String text, int i) {
        char q = text.charAt(i);
        for (int j = i + 1; j < text.length(); j++) {
            if (text.charAt(j) == q) {
                if (j + 1 < text.length() && text.charAt(j + 1) == q) {
                    j++;
                } else {
                    return j;
                }
            }
        }
        return -1;
    }

    /**
     * {@code text} stripped, each run of blanks outside quotes one space, none just inside
     * brackets ({@code sum( x )} is {@code sum(x)}).
     */
    static String normalized(String text) {
        StringBuilder out = new StringBuilder();
        String s = text.strip();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closing(s, i);
                end = end < 0 ? s.length() - 1 : end;
                out.append(s, i, end + 1);
                i = end;
            } else if (Character.isWhitespace(c)) {
                while (i + 1 < s.length() && Character.isWhitespace(s.charAt(i + 1))) {
                    i++;
                }
                char next = i + 1 < s.length() ? s.charAt(i + 1) : ')';
                char previous = out.length() > 0 ? out.charAt(out.length() - 1) : '(';
                if (next != ')' && next != ']' && previous != '(' && previous != '[') {
                    out.append(' ');
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
