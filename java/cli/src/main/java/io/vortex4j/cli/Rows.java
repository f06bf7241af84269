package io.vortex4j.cli;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;

/** Rows to print: a query's result set, or rows a command computed ({@code schema}, {@code stats}). */
interface Rows {
    /** The column labels. */
    String[] names() throws SQLException;

    /** Moves to the next row; false after the last. */
    boolean next() throws SQLException;

    /** The value of column {@code i} (from 0) of the current row. */
    Object get(int i) throws SQLException;

    /** A result set's rows. */
    static Rows of(ResultSet rs) {
        return new Rows() {
            @Override
            public String[] names() throws SQLException {
                ResultSetMetaData md = rs.getMetaData();
                String[] names = new String[md.getColumnCount()];
                for (int i = 0; i < names.length; i++) {
                    names[i] = md.getColumnLabel(i + 1);
                }
                return names;
            }

            @Override
            public boolean next() throws SQLException {
                return rs.next();
            }

            @Override
            public Object get(int i) throws SQLException {
                return rs.getObject(i + 1);
            }
        };
    }

    /** Computed rows under the labels {@code names}. */
    static Rows of(List<String> names, List<Object[]> rows) {
        Iterator<Object[]> it = rows.iterator();
        return new Rows() {
            private Object[] row;

            @Override
            public String[] names() {
                return names.toArray(new String[0]);
            }

            @Override
            public boolean next() {
                row = it.hasNext() ? it.next() : null;
                return row != null;
            }

            @Override
            public Object get(int i) {
                return row[i];
            }
        };
    }
}
