package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares answers whose floating-point sums may differ in the last bits (a pushed SUM over a
 * dataset adds per-split sums in split order, Calcite adds row by row): rows are matched as
 * multisets, every value equal except doubles, which must agree to {@value #RELATIVE} relative.
 */
final class Answers {
    static final double RELATIVE = 1e-9;

    private Answers() {}

    /** {@code actual}'s answer to {@code sql} equals {@code expected}'s, doubles up to rounding. */
    static void assertClose(String sql, Connection expected, Connection actual) throws SQLException {
        assertClose(sql, sorted(Sql.rows(expected, sql)), sorted(Sql.rows(actual, sql)));
    }

    static void assertClose(String what, List<List<Object>> expected, List<List<Object>> actual) {
        assertEquals(what + ": row count", expected.size(), actual.size());
        for (int r = 0; r < expected.size(); r++) {
            List<Object> e = expected.get(r);
            List<Object> a = actual.get(r);
            assertEquals(what, e.size(), a.size());
            for (int c = 0; c < e.size(); c++) {
                Object x = e.get(c);
                Object y = a.get(c);
                if (isDouble(x) && isDouble(y)) {
                    double dx = parse(x);
                    double dy = parse(y);
                    boolean close = Double.compare(dx, dy) == 0
                            || Math.abs(dx - dy) <= RELATIVE * Math.max(Math.abs(dx), Math.abs(dy));
                    assertTrue(what + ": row " + e + " vs " + a, close);
                } else {
                    assertEquals(what + ": row " + e + " vs " + a, x, y);
                }
            }
        }
    }

    /** The rows sorted by their values, doubles rounded, so that close answers line up. */
    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Answers::key));
        return out;
    }

    private static String key(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            if (isDouble(v)) {
                double d = parse(v);
                sb.append(Double.isFinite(d) ? new BigDecimal(d).round(new MathContext(6)).toString() : v);
            } else {
                sb.append(v);
            }
            sb.append('|');
        }
        return sb.toString();
    }

    /** Whether {@code v} is a double as {@link Sql#canonical} prints it ("D" and the value; not a string like "DIS"). */
    private static boolean isDouble(Object v) {
        if (!(v instanceof String s) || !s.startsWith("D") || s.length() < 2) {
            return false;
        }
        try {
            return s.equals("D" + Double.parseDouble(s.substring(1)));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static double parse(Object v) {
        return Double.parseDouble(((String) v).substring(1));
    }
}
