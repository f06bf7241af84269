package io.vortex4j.calcite.jdbc;

import java.util.regex.Pattern;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A statement that does not parse, said the way DuckDB and PostgreSQL say it: where (line and
 * column, both from 1) and the token the parser stopped at, {@code syntax error at line 1, column
 * 1: unexpected "SELEC"}, or {@code unexpected end of input}. Calcite's own message names the
 * token only sometimes (a statement that is an expression is "Non-query expression encountered
 * in illegal context") and lists every token it would have taken instead. A reserved word where a
 * name is expected gets the hint to quote it ({@link ReservedWords}).
 *
 * <p>{@link QueryErrors} turns it into a {@link java.sql.SQLSyntaxErrorException} (42000) with
 * this message, this exception as its cause (or a cause of it): {@link #in} finds it there, for
 * a program that shows the statement with {@link #pointer}.
 */
public final class SyntaxError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Calcite's first line when the parser ran out of input: {@code Encountered "<EOF>"}, {@code "+ <EOF>"}. */
    private static final Pattern AT_END = Pattern.compile("Encountered \"[^\\n]*<EOF>\" at line .*");
    /** Longest token quoted in the message; the rest is cut with an ellipsis. */
    private static final int MAX_TOKEN = 40;

    private final int line;
    private final int column;
    private final String token;

    private SyntaxError(int line, int column, String token, String hint, SqlParseException cause) {
        super("syntax error at line " + line + ", column " + column + ": unexpected "
                + (token == null ? "end of input" : quoted(token)) + (hint == null ? "" : " (" + hint + ")"), cause);
        this.line = line;
        this.column = column;
        this.token = token;
    }

    /**
     * The syntax error {@code error} comes from: the parse error among its causes, said with its
     * position in {@code sql} and its token; null when it is no parse error or has no position.
     *
     * @param error what preparing {@code sql} threw
     * @param sql the statement as parsed
     * @param config the parser's settings (for its reserved words and quoting)
     * @return the syntax error, or null
     */
    static SyntaxError of(Throwable error, String sql, SqlParser.Config config) {
        SqlParseException parse = null;
        for (Throwable c = error; c != null && parse == null; c = c.getCause()) {
            parse = c instanceof SqlParseException p ? p : null;
        }
        SqlParserPos pos = parse == null ? null : parse.getPos();
        if (pos == null || sql == null || pos.getLineNum() < 1 || pos.getColumnNum() < 1) {
            return null;
        }
        String message = String.valueOf(parse.getMessage());
        if (AT_END.matcher(message.lines().findFirst().orElse("")).matches()) {
            int[] end = end(sql);
            return new SyntaxError(end[0], end[1], null, null, parse);
        }
        String token = tokenAt(sql, pos.getLineNum(), pos.getColumnNum());
        if (token == null) {
            int[] end = end(sql);
            return new SyntaxError(end[0], end[1], null, null, parse);
        }
        String hint = ReservedWords.quotingHint(token, config);
        if (hint == null && token.equals(";")) {
            hint = "one statement at a time";
        }
        return new SyntaxError(pos.getLineNum(), pos.getColumnNum(), token, hint, parse);
    }

    /**
     * The syntax error {@code t} is or was caused by, or null.
     *
     * @param t a failure, such as the {@link java.sql.SQLException} of a statement
     * @return the syntax error among {@code t} and its causes, or null
     */
    public static SyntaxError in(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SyntaxError s) {
                return s;
            }
        }
        return null;
    }

    /** The line of the error, from 1. */
    public int line() {
        return line;
    }

    /** The column of the error in its line, from 1 (a tab counts one). */
    public int column() {
        return column;
    }

    /** The token the parser stopped at, as written; null at the end of the input. */
    public String token() {
        return token;
    }

    /**
     * The line of {@code sql} the error is on, after {@code LINE n: }, and under it a caret
     * under the error's column, as psql shows one: two lines without a final line break. A long
     * line is cut to the part around the column, with {@code ...} where it is cut.
     *
     * @param sql the statement that failed, as it was run
     * @return the two lines, or null when {@code sql} has no such line
     */
    public String pointer(String sql) {
        String[] lines = sql.split("\r\n|\r|\n", -1);
        if (line > lines.length) {
            return null;
        }
        String text = lines[line - 1];
        int at = Math.min(column - 1, text.length()); // the caret's index in text
        int from = Math.max(0, at - 60);
        int to = Math.min(text.length(), Math.max(at + 1, from + 120));
        String prefix = "LINE " + line + ": " + (from > 0 ? "..." : "");
        String shown = text.substring(from, to) + (to < text.length() ? "..." : "");
        StringBuilder caret = new StringBuilder();
        for (int i = 0; i < prefix.length(); i++) {
            caret.append(' ');
        }
        for (int i = from; i < at; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        return prefix + shown + "\n" + caret.append('^');
    }

    /** {@code token} in double quotes, unless it is a name in double quotes already; on one line. */
    private static String quoted(String token) {
        String t = token.length() <= MAX_TOKEN ? token : token.substring(0, MAX_TOKEN) + "…";
        t = t.replaceAll("\\s+", " ");
        return t.startsWith("\"") ? t : "\"" + t + "\"";
    }

    /**
     * The token starting at {@code line}, {@code column} (from 1) of {@code sql}: a word, a
     * number, a quoted string or name, an operator of two characters or any other one character;
     * null past the end.
     */
    static String tokenAt(String sql, int line, int column) {
        int start = offset(sql, line, column);
        if (start < 0 || start >= sql.length()) {
            return null;
        }
        char c = sql.charAt(start);
        int end = start + 1;
        if (isWordChar(c)) {
            while (end < sql.length() && isWordChar(sql.charAt(end))) {
                end++;
            }
        } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
            char close = c == '[' ? ']' : c;
            while (end < sql.length()) {
                if (sql.charAt(end) == close) {
                    if (close != ']' && end + 1 < sql.length() && sql.charAt(end + 1) == close) {
                        end += 2; // a doubled quote stands for itself
                        continue;
                    }
                    end++;
                    break;
                }
                end++;
            }
        } else if (end < sql.length() && TWO_CHARACTER_OPERATORS.contains(sql.substring(start, end + 1))) {
            end++;
        }
        return sql.substring(start, end);
    }

    private static final java.util.Set<String> TWO_CHARACTER_OPERATORS =
            java.util.Set.of("<>", "<=", ">=", "!=", "||", "::", "=>", "->", "<<", ">>", "**");

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The index in {@code sql} of {@code line}, {@code column} (from 1, lines as the parser counts them), or -1. */
    static int offset(String sql, int line, int column) {
        int i = 0;
        for (int l = 1; l < line; l++) {
            while (i < sql.length() && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
                i++;
            }
            if (i >= sql.length()) {
                return -1;
            }
            i += sql.startsWith("\r\n", i) ? 2 : 1;
        }
        int at = i + column - 1;
        for (int j = i; j < Math.min(at, sql.length()); j++) {
            if (sql.charAt(j) == '\n' || sql.charAt(j) == '\r') {
                return -1; // past the end of the line
            }
        }
        return at;
    }

    /** The line and column just after the last character of {@code sql} that is not blank. */
    private static int[] end(String sql) {
        int last = sql.length();
        while (last > 0 && Character.isWhitespace(sql.charAt(last - 1))) {
            last--;
        }
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < last; i++) {
            char c = sql.charAt(i);
            if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < last && sql.charAt(i + 1) == '\n') {
                    i++;
                }
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, last - lineStart + 1};
    }
}
