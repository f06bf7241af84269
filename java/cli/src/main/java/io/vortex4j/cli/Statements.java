package io.vortex4j.cli;

import java.util.ArrayList;
import java.util.List;

/** A script as its statements: split at {@code ;} outside strings, quoted names and comments. */
final class Statements {
    private Statements() {}

    /** The statements of {@code script}, trimmed; blank ones (and comments alone) dropped. */
    static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        int start = 0;
        boolean code = false; // whether the current statement has more than comments and blanks
        int n = script.length();
        for (int i = 0; i < n; ) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                int eol = script.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'' || c == '"' || c == '`') {
                int end = script.indexOf(c, i + 1);
                while (end >= 0 && end + 1 < n && script.charAt(end + 1) == c) {
                    end = script.indexOf(c, end + 2);
                }
                i = end < 0 ? n : end + 1;
                code = true;
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

    private static void add(List<String> out, String statement, boolean code) {
        if (code) {
            out.add(statement.strip());
        }
    }
}
