package io.vortex4j.calcite;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The JDBC calls the tests share: rows, answers, plans. */
public final class Sql {
    private Sql() {}

    /** The rows of {@code sql}, each a list of {@link #canonical} values. */
    static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(canonical(rs.getObject(i)));
                }
                out.add(row);
            }
        }
        return out;
    }

    /** The rows of {@code rs} as sorted strings (see {@link #answer(Connection, String)}); closes it. */
    public static List<String> answer(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(canonical(rs.getObject(i)));
                }
                out.add(row.toString());
            }
        }
        Collections.sort(out);
        return out;
    }

    /** The rows of {@code sql} as sorted strings: an order-insensitive, exact picture of the answer. */
    public static List<String> answer(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        for (List<Object> row : rows(c, sql)) {
            out.add(row.toString());
        }
        Collections.sort(out);
        return out;
    }

    /** A value with exact equality and printing: byte[] as hex, BigDecimal unchanged, others as is. */
    static Object canonical(Object v) {
        if (v instanceof byte[] b) {
            StringBuilder sb = new StringBuilder("X'");
            for (byte x : b) {
                sb.append(String.format("%02X", x));
            }
            return sb.append('\'').toString();
        }
        if (v instanceof BigDecimal || v == null) {
            return v;
        }
        if (v instanceof Double d) {
            // Distinguish -0.0 from 0.0 and print NaN exactly.
            return "D" + d;
        }
        if (v instanceof Float f) {
            return "F" + f;
        }
        return v;
    }

    /** The single value of a one-row, one-column query. */
    static Object scalar(Connection c, String sql) throws SQLException {
        List<List<Object>> rows = rows(c, sql);
        if (rows.size() != 1 || rows.get(0).size() != 1) {
            throw new AssertionError(sql + " gave " + rows);
        }
        return rows.get(0).get(0);
    }

    /** The plan Calcite chose, as EXPLAIN PLAN prints it. */
    public static String explain(Connection c, String sql) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                sb.append(rs.getString(1)).append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code rows} of longs from a one-column query. */
    static List<Long> longs(Connection c, String sql) throws SQLException {
        List<Long> out = new ArrayList<>();
        for (List<Object> row : rows(c, sql)) {
            out.add(((Number) row.get(0)).longValue());
        }
        return out;
    }

    static String join(Object... parts) {
        return String.join(" ", Arrays.stream(parts).map(String::valueOf).toArray(String[]::new));
    }
}
