package io.vortex4j.calcite.jdbc;

import java.util.Locale;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The hint for a parse error at a reserved word. Columns named like SQL keywords parse unquoted
 * where the grammar allows (the Babel parser takes {@code day}, {@code month}, {@code year},
 * {@code value}, {@code count}, {@code user}, ...), but some cannot be names anywhere (e.g.
 * {@code timestamp}, which starts a literal): then the error says to quote the name.
 */
final class ReservedWords {
    private ReservedWords() {}

    /**
     * {@code error} with the quoting hint in front of its message when it is a parse error at a
     * reserved word of the parser configured by {@code config}; null otherwise.
     */
    static RuntimeException withQuotingHint(RuntimeException error, String sql, SqlParser.Config config) {
        SqlParseException parse = null;
        for (Throwable c = error; c != null && parse == null; c = c.getCause()) {
            parse = c instanceof SqlParseException p ? p : null;
        }
        if (parse == null || sql == null || parse.getPos() == null) {
            return null;
        }
        String word = wordAt(sql, parse.getPos());
        if (word == null || !SqlParser.create("", config).getMetadata().isReservedWord(word.toUpperCase(Locale.ROOT))) {
            return null;
        }
        Quoting q = config.quoting();
        String quoted = q == Quoting.BRACKET ? "[" + word + "]" : q.string + word + q.string;
        return new RuntimeException("parse failed: " + word + " is a reserved word; to use it as a column or table"
                + " name, quote it: " + quoted + ". " + parse.getMessage(), parse);
    }

    /** The word (letters, digits, {@code _}, {@code $}) starting at {@code pos} in {@code sql}, or null. */
    static String wordAt(String sql, SqlParserPos pos) {
        String[] lines = sql.split("\r\n|\r|\n", -1);
        int line = pos.getLineNum() - 1;
        int column = pos.getColumnNum() - 1;
        if (line < 0 || line >= lines.length || column < 0 || column >= lines[line].length()) {
            return null;
        }
        String text = lines[line];
        int end = column;
        while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_'
                || text.charAt(end) == '$')) {
            end++;
        }
        return end == column ? null : text.substring(column, end);
    }
}
