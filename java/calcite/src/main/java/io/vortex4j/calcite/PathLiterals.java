package io.vortex4j.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.Quoting;

/**
 * Files named in FROM, DuckDB's way: {@code SELECT * FROM 'data/trades.vortex'} is rewritten to
 * the quoted identifier {@code FROM "data/trades.vortex"}, which {@link PathTables} resolves.
 * SQL has no string literal in that place, so nothing valid changes meaning: only a literal right
 * after {@code FROM} or {@code JOIN} of a query (a parenthesis level holding a {@code SELECT}) is
 * rewritten, never one after {@code IS [NOT] DISTINCT FROM} or the {@code FROM} of {@code SUBSTRING(s FROM '...')}, {@code
 * EXTRACT(... FROM ...)} or {@code TRIM(... FROM ...)}. Strings, quoted identifiers and comments
 * are skipped whole.
 */
final class PathLiterals {
    /** The statement rewritten, and the names right after FROM or JOIN that are paths ({@link PathTables#isPath}). */
    static final class Rewritten {
        final String sql;
        final List<String> paths;

        Rewritten(String sql, List<String> paths) {
            this.sql = sql;
            this.paths = paths;
        }
    }

    private PathLiterals() {}

    /** {@code sql} with its path literals in FROM as identifiers in the connection's {@code quoting}. */
    static Rewritten rewrite(String sql, Quoting quoting) {
        List<String> paths = new ArrayList<>();
        if (sql.indexOf('\'') < 0 && sql.indexOf('"') < 0 && sql.indexOf('`') < 0 && sql.indexOf('[') < 0) {
            return new Rewritten(sql, paths);
        }
        char open = quoting == Quoting.BRACKET ? '[' : quoting == Quoting.DOUBLE_QUOTE
                || quoting == Quoting.DOUBLE_QUOTE_BACKSLASH || quoting == null ? '"' : '`';
        StringBuilder out = null;
        int n = sql.length();
        // Per parenthesis level: whether a SELECT opened at that level (the level is a query).
        boolean[] query = new boolean[16];
        int depth = 0;
        boolean afterFrom = false;
        String previous = "";
        int copied = 0;
        for (int i = 0; i < n; ) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'' || c == '"' || c == '`' || c == '[' && quoting == Quoting.BRACKET) {
                int end = closing(sql, i, c == '[' ? ']' : c);
                if (c == '\'' && afterFrom && end > 0) {
                    String path = sql.substring(i + 1, end - 1).replace("''", "'");
                    if (out == null) {
                        out = new StringBuilder(n + 8);
                    }
                    out.append(sql, copied, i).append(identifier(path, quoting));
                    copied = end;
                    paths.add(path);
                } else if (c == open && afterFrom && end > 0) {
                    String name = c == '[' ? sql.substring(i + 1, end - 1)
                            : sql.substring(i + 1, end - 1).replace(String.valueOf(c) + c, String.valueOf(c));
                    if (PathTables.isPath(name)) {
                        paths.add(name);
                    }
                }
                afterFrom = false;
                i = end < 0 ? n : end;
            } else if (c == '(') {
                depth++;
                if (depth >= query.length) {
                    query = java.util.Arrays.copyOf(query, 2 * query.length);
                }
                query[depth] = false;
                afterFrom = false;
                i++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                afterFrom = false;
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                if (word.equalsIgnoreCase("SELECT")) {
                    query[depth] = true;
                }
                // IS [NOT] DISTINCT FROM 'x' compares with a string: not a FROM clause.
                afterFrom = query[depth] && !previous.equalsIgnoreCase("DISTINCT")
                        && (word.equalsIgnoreCase("FROM") || word.equalsIgnoreCase("JOIN"));
                previous = word;
                i = end;
            } else {
                if (!Character.isWhitespace(c)) {
                    afterFrom = false;
                }
                i++;
            }
        }
        return new Rewritten(out == null ? sql : out.append(sql, copied, n).toString(), paths);
    }

    /** The index after the quote closing the one at {@code start} (doubled quotes inside), or -1. */
    private static int closing(String sql, int start, char quote) {
        for (int i = start + 1; i < sql.length(); i++) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote && quote != ']') {
                    i++;
                } else {
                    return i + 1;
                }
            }
        }
        return -1;
    }

    private static String identifier(String name, Quoting quoting) {
        switch (quoting) {
            case BACK_TICK:
                return "`" + name.replace("`", "``") + "`";
            case BRACKET:
                return "[" + name + "]";
            default:
                return "\"" + name.replace("\"", "\"\"") + "\"";
        }
    }
}
