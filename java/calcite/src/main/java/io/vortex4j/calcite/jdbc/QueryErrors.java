package io.vortex4j.calcite.jdbc;

import io.vortex4j.CancelledException;
import io.vortex4j.VortexException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * Turns whatever a query threw into the one {@link SQLException} a JDBC user should see: the
 * cause in one readable line, the right subclass and SQLState, the original throwable as the
 * cause (for stack traces on request). Calcite and Avatica wrap a failure several times (an
 * error while executing, an error while compiling generated code that quotes all the code, an
 * {@link ExceptionInInitializerError} when a constant expression of the generated code fails) and
 * let {@link Error}s through; the message worth reading is deep inside.
 *
 * <ul>
 *   <li>a deadline ({@code setQueryTimeout}): {@link SQLTimeoutException};
 *   <li>a cancel: SQLState 57014;
 *   <li>division by zero, a string that is not a number: {@link SQLDataException} (22012, 22018);
 *   <li>a parse error: {@link SQLSyntaxErrorException} (42000), with its line, column and token
 *       ({@link SyntaxError}) when the statement's text is known, else Calcite's first line;
 *   <li>validation errors keep Calcite's message with the position;
 *   <li>generated code Janino cannot compile (e.g. more than 64 KB in one method): 54001, the
 *       compiler's message without the code;
 *   <li>file and column errors ({@link VortexException}): their message, which names them.
 * </ul>
 */
public final class QueryErrors {
    /** Longest message kept; the rest is cut with an ellipsis. */
    static final int MAX_MESSAGE = 400;
    private static final Pattern NOT_A_NUMBER = Pattern.compile("For input string: \"(.*)\"(?: under radix \\d+)?");

    private QueryErrors() {}

    /** The SQLException for {@code t} (translating one of ours again gives an equal one). */
    public static SQLException toSqlException(Throwable t) {
        return translate(t);
    }

    /** Whether {@code t} should be translated: anything but the JVM running out of resources. */
    public static boolean translatable(Throwable t) {
        return !(t instanceof VirtualMachineError) || t instanceof StackOverflowError;
    }

    private static SQLException translate(Throwable t) {
        for (Throwable c = t; c != null; c = next(c)) {
            if (c instanceof CancelledException x) {
                return x.isTimeout()
                        ? new SQLTimeoutException(line(x.getMessage()), "HYT00", x)
                        : new SQLException(line(x.getMessage()), "57014", x);
            }
            if (c instanceof SQLTimeoutException x) {
                return x;
            }
        }
        for (Throwable c = t; c != null; c = next(c)) {
            if (c instanceof VortexException x) {
                return new SQLException(line(x.getMessage()), "58030", t);
            }
            if (c instanceof CalciteContextException x) {
                return new SQLException(line(x.getMessage()), "42000", t);
            }
            if (c instanceof SyntaxError x) {
                return new SQLSyntaxErrorException(x.getMessage(), "42000", t);
            }
            if (c instanceof SqlParseException x) {
                return new SQLSyntaxErrorException(line(x.getMessage()), "42000", t);
            }
            if (isCompiler(c)) {
                Throwable deepest = c;
                for (Throwable d = c; d != null; d = next(d)) {
                    deepest = isCompiler(d) ? d : deepest;
                }
                return new SQLException("the query cannot be compiled: " + line(deepest.getMessage())
                        + " (Calcite generates Java code for what is not pushed into the scan; very long IN"
                        + " lists or expressions exceed the JVM's limits)", "54001", t);
            }
        }
        Throwable root = t;
        while (next(root) != null) {
            root = next(root);
        }
        if (root instanceof ArithmeticException a) {
            String m = String.valueOf(a.getMessage());
            if (m.toLowerCase(java.util.Locale.ROOT).contains("zero")) {
                return new SQLDataException("division by zero", "22012", t);
            }
            return new SQLDataException("arithmetic error: " + line(m), "22003", t);
        }
        if (root instanceof NumberFormatException n) {
            Matcher m = NOT_A_NUMBER.matcher(String.valueOf(n.getMessage()));
            String what = m.matches() ? "'" + m.group(1) + "'" : line(n.getMessage());
            return new SQLDataException("cannot convert " + what + " to a number", "22018", t);
        }
        if (root instanceof StackOverflowError) {
            return new SQLException("the query is too deeply nested (stack overflow)", "54001", t);
        }
        if (root instanceof SQLException s) {
            if ("Statement canceled".equals(s.getMessage())) {
                return new SQLException("the query was cancelled", "57014", t);
            }
            return new SQLException(line(s.getMessage()), s.getSQLState(), t);
        }
        String m = root.getMessage();
        String kind = root.getClass().getSimpleName();
        return new SQLException(m == null || m.isBlank() ? kind : kind + ": " + line(m), "HY000", t);
    }

    /** Janino, which compiles the Java code Calcite generates for a plan. */
    private static boolean isCompiler(Throwable t) {
        return t.getClass().getName().startsWith("org.codehaus.");
    }

    /** The cause worth looking at below {@code t} (an initializer's exception, a wrapped one). */
    private static Throwable next(Throwable t) {
        Throwable c = t instanceof ExceptionInInitializerError e && e.getException() != null ? e.getException() : t.getCause();
        return c == t ? null : c;
    }

    /** The first line of {@code message}, at most {@link #MAX_MESSAGE} characters. */
    static String line(String message) {
        if (message == null) {
            return "(no message)";
        }
        String s = message.strip();
        int nl = s.indexOf('\n');
        if (nl >= 0) {
            s = s.substring(0, nl).strip();
        }
        return s.length() <= MAX_MESSAGE ? s : s.substring(0, MAX_MESSAGE) + "…";
    }
}
