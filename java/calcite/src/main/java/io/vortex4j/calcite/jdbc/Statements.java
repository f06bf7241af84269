package io.vortex4j.calcite.jdbc;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL text as statements: a script split at {@code ;} outside strings, quoted names and
 * comments, and one statement's terminating {@code ;} (with the blanks and comments after it)
 * dropped, which Calcite's parser does not take. The {@code jdbc:vortex:} driver prepares every
 * statement without its terminator; the command line splits what it is given with {@link
 * #split}.
 */
public final class Statements {
    private Statements() {}

    /**
     * The statements of {@code script}, trimmed; blank ones (and comments alone) dropped.
     *
     * @param script statements separated by {@code ;}
     * @return its statements, without their {@code ;}
     */
    public static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        int start = 0;
        boolean code = false; // whether the current statement has more than comments and blanks
        int n = script.length();
        for (int i = 0; i < n; ) {
            char c = script.charAt(i);
            int skipped = skip(script, i);
            if (skipped > i) {
                code |= c != '-' && c != '/'; // a string or quoted name is code, a comment is not
                i = skipped;
            } else if (c == ';') {
                add(out, script.substring(start, i), code);
                start = ++i;
                code = false;
            } else {
                code |= !Character.isWhitespace(c);
                i++;
            }
        }
        add(out, script.substring(start), code);
        return out;
    }

    /**
     * {@code sql} without its terminating {@code ;}s and the blanks and comments after them;
     * {@code sql} itself when it has none, or when code follows one (more than one statement,
     * which the parser then reports). What is kept is unchanged, so that positions in it are
     * positions in {@code sql}.
     *
     * @param sql one statement, perhaps ending with {@code ;}
     * @return the statement to parse
     */
    public static String withoutTerminator(String sql) {
        int end = -1; // the first ';' after the last code
        int n = sql.length();
        for (int i = 0; i < n; ) {
            char c = sql.charAt(i);
            int skipped = skip(sql, i);
            if (skipped > i) {
                if (c != '-' && c != '/') {
                    end = -1;
                }
                i = skipped;
            } else {
                if (c == ';') {
                    end = end < 0 ? i : end;
                } else if (!Character.isWhitespace(c)) {
                    end = -1;
                }
                i++;
            }
        }
        return end < 0 ? sql : sql.substring(0, end);
    }

    /**
     * The end of the comment, string or quoted name starting at {@code i} in {@code s} (the end
     * of {@code s} when it is not closed), or {@code i} when none starts there.
     */
    private static int skip(String s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
            int eol = s.indexOf('\n', i);
            return eol < 0 ? n : eol + 1;
        }
        if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
            int end = s.indexOf("*/", i + 2);
            return end < 0 ? n : end + 2;
        }
        if (c == '\'' || c == '"' || c == '`') {
            int end = s.indexOf(c, i + 1);
            while (end >= 0 && end + 1 < n && s.charAt(end + 1) == c) {
                end = s.indexOf(c, end + 2);
            }
            return end < 0 ? n : end + 1;
        }
        return i;
    }

    private static void add(List<String> out, String statement, boolean code) {
        if (code) {
            out.add(statement.strip());
        }
    }
}
