package io.vortex4j.tpch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A query's answer as two engines can be compared on it: the column labels, and the rows with
 * every value normalized (numbers of any type as {@link BigDecimal}, dates as {@link LocalDate},
 * strings as they are). {@link #difference} says how two answers differ: numbers agree to {@value
 * #RELATIVE} relative (decimal and floating-point sums of the two engines may differ in the last
 * digits, and an engine may answer DOUBLE where the other answers DECIMAL), everything else
 * exactly; rows in order by the ORDER BY columns, rows tied on them (or all rows, without ORDER
 * BY) as a multiset.
 */
public final class TpchAnswer {
    /** Two numbers agree when they differ by at most this fraction of the larger. */
    public static final double RELATIVE = 1e-9;

    /** Labels engines make up for unnamed expressions (Calcite's EXPR$5, DuckDB's "sum(l_quantity)"). */
    private static final Pattern GENERATED = Pattern.compile("(?i)expr\\$\\d+|.*[()].*");

    /** The column labels. */
    public final List<String> columns;
    /** The rows, values normalized. */
    public final List<List<Object>> rows;

    private TpchAnswer(List<String> columns, List<List<Object>> rows) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
    }

    /** An answer of these columns and rows (values normalized as {@link #read} does). */
    public static TpchAnswer of(List<String> columns, List<List<Object>> rows) {
        List<List<Object>> normalized = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> r = new ArrayList<>(row.size());
            for (Object v : row) {
                r.add(normalize(v));
            }
            normalized.add(r);
        }
        return new TpchAnswer(columns, normalized);
    }

    /**
     * {@code sql}'s answer on {@code c}, every row read; with {@code timeoutSeconds > 0} the
     * statement's query timeout (a query running longer fails with the driver's
     * {@link java.sql.SQLTimeoutException} or other cancellation error).
     */
    public static TpchAnswer read(Connection c, String sql, int timeoutSeconds) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (timeoutSeconds > 0) {
                s.setQueryTimeout(timeoutSeconds);
            }
            try (ResultSet rs = s.executeQuery(sql)) {
                ResultSetMetaData md = rs.getMetaData();
                int n = md.getColumnCount();
                List<String> columns = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    columns.add(md.getColumnLabel(i));
                }
                List<List<Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>(n);
                    for (int i = 1; i <= n; i++) {
                        row.add(normalize(rs.getObject(i)));
                    }
                    rows.add(row);
                }
                return new TpchAnswer(columns, rows);
            }
        }
    }

    /** A value as answers compare it. */
    static Object normalize(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? new BigDecimal(Double.toString(d)) : d;
        }
        if (v instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (v instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (v instanceof LocalDate || v instanceof LocalDateTime || v instanceof String) {
            return v;
        }
        return v.toString();
    }

    /**
     * How {@code actual} differs from {@code expected}, or null when they agree: the same number
     * of columns with the same labels (case-insensitively; labels either engine made up for
     * unnamed expressions are not compared), the same number of rows, values of the ORDER BY
     * columns {@code orderKeys} (1-based) row by row, and every row as a multiset.
     */
    public static String difference(TpchAnswer expected, TpchAnswer actual, int[] orderKeys) {
        if (expected.columns.size() != actual.columns.size()) {
            return "columns " + actual.columns + ", expected " + expected.columns;
        }
        for (int i = 0; i < expected.columns.size(); i++) {
            String e = expected.columns.get(i), a = actual.columns.get(i);
            if (!GENERATED.matcher(e).matches() && !GENERATED.matcher(a).matches()
                    && !e.toLowerCase(Locale.ROOT).equals(a.toLowerCase(Locale.ROOT))) {
                return "column " + (i + 1) + " is " + a + ", expected " + e;
            }
        }
        if (expected.rows.size() != actual.rows.size()) {
            return actual.rows.size() + " rows, expected " + expected.rows.size() + firstRows(expected, actual);
        }
        for (int k : orderKeys) {
            if (k < 1 || k > expected.columns.size()) {
                throw new IllegalArgumentException("ORDER BY key " + k + " of " + java.util.Arrays.toString(orderKeys)
                        + " is not one of the answer's " + expected.columns.size() + " columns " + expected.columns);
            }
        }
        for (int r = 0; r < expected.rows.size(); r++) {
            for (int k : orderKeys) {
                Object e = expected.rows.get(r).get(k - 1), a = actual.rows.get(r).get(k - 1);
                if (!close(e, a)) {
                    return "row " + (r + 1) + " in ORDER BY order has " + expected.columns.get(k - 1) + " = " + a
                            + ", expected " + e + ": row " + actual.rows.get(r) + ", expected " + expected.rows.get(r);
                }
            }
        }
        List<List<Object>> e = sorted(expected.rows), a = sorted(actual.rows);
        for (int r = 0; r < e.size(); r++) {
            for (int c = 0; c < e.get(r).size(); c++) {
                if (!close(e.get(r).get(c), a.get(r).get(c))) {
                    return "row " + a.get(r) + ", expected " + e.get(r) + " (rows compared in sorted order; column "
                            + expected.columns.get(c) + ")";
                }
            }
        }
        return null;
    }

    private static String firstRows(TpchAnswer expected, TpchAnswer actual) {
        return "; first rows " + actual.rows.subList(0, Math.min(3, actual.rows.size())) + ", expected "
                + expected.rows.subList(0, Math.min(3, expected.rows.size()));
    }

    /** Whether two normalized values agree: numbers to {@link #RELATIVE}, the rest exactly. */
    static boolean close(Object e, Object a) {
        if (e == null || a == null) {
            return e == a;
        }
        if (e instanceof BigDecimal x && a instanceof BigDecimal y) {
            if (x.compareTo(y) == 0) {
                return true;
            }
            BigDecimal scale = x.abs().max(y.abs());
            return x.subtract(y).abs().compareTo(scale.multiply(BigDecimal.valueOf(RELATIVE))) <= 0;
        }
        return e.equals(a);
    }

    /** The rows in a canonical order (numbers rounded to 10 digits, so that close answers line up). */
    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort(ROWS);
        return out;
    }

    private static final MathContext SORT_DIGITS = new MathContext(10);

    private static final Comparator<List<Object>> ROWS = (x, y) -> {
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = compareValues(x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    };

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        if (x instanceof BigDecimal a && y instanceof BigDecimal b) {
            return a.round(SORT_DIGITS).compareTo(b.round(SORT_DIGITS));
        }
        if (x.getClass() != y.getClass() || !(x instanceof Comparable)) {
            return x.getClass().getName().compareTo(y.getClass().getName());
        }
        return ((Comparable) x).compareTo(y);
    }
}
