package io.vortex4j.calcite;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Every dtype arrives in SQL with the documented type, nullability and value: the rows of {@code
 * types} read through JDBC equal the values given to the writer, converted independently here
 * (unsigned values widened, times and timestamps floored to milliseconds).
 */
public class TypeMappingTest extends WithConnections {
    private static final Object[][] COLUMNS = {
        // name, java.sql.Types, type name, precision, scale
        {"id", Types.BIGINT, "BIGINT", 19, 0},
        {"b", Types.BOOLEAN, "BOOLEAN", 1, 0},
        {"i8", Types.TINYINT, "TINYINT", 3, 0},
        {"i16", Types.SMALLINT, "SMALLINT", 5, 0},
        {"i32", Types.INTEGER, "INTEGER", 10, 0},
        {"i64", Types.BIGINT, "BIGINT", 19, 0},
        {"u8", Types.SMALLINT, "SMALLINT", 5, 0},
        {"u16", Types.INTEGER, "INTEGER", 10, 0},
        {"u32", Types.BIGINT, "BIGINT", 19, 0},
        {"u64", Types.DECIMAL, "DECIMAL", 20, 0},
        {"qty", Types.INTEGER, "INTEGER", 10, 0},
        {"f32", Types.REAL, "REAL", 7, 0},
        {"f64", Types.DOUBLE, "DOUBLE", 15, 0},
        {"s", Types.VARCHAR, "VARCHAR", -1, 0},
        {"s2", Types.VARCHAR, "VARCHAR", -1, 0},
        {"bin", Types.VARBINARY, "VARBINARY", -1, 0},
        {"amount", Types.DECIMAL, "DECIMAL", 12, 3},
        {"d", Types.DATE, "DATE", 0, 0},
        {"t_s", Types.TIME, "TIME", 0, 0},
        {"t_ms", Types.TIME, "TIME", 3, 0},
        {"t_us", Types.TIME, "TIME", 3, 0},
        {"ts_s", Types.TIMESTAMP, "TIMESTAMP", 0, 0},
        {"ts_ms", Types.TIMESTAMP, "TIMESTAMP", 3, 0},
        {"ts_us", Types.TIMESTAMP, "TIMESTAMP", 3, 0},
        {"ts_ns", Types.TIMESTAMP, "TIMESTAMP", 3, 0},
        {"ts_tz", Types.TIMESTAMP, "TIMESTAMP", 3, 0},
    };

    @Test
    public void columnTypesAndNullability() throws SQLException {
        for (Connection c : new Connection[] {push, plain}) {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM types WHERE id < 0")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(COLUMNS.length, md.getColumnCount());
                for (int i = 0; i < COLUMNS.length; i++) {
                    Object[] col = COLUMNS[i];
                    String what = String.valueOf(col[0]);
                    assertEquals(what, col[0], md.getColumnName(i + 1));
                    assertEquals(what, col[1], md.getColumnType(i + 1));
                    assertEquals(what, col[2], md.getColumnTypeName(i + 1));
                    if ((int) col[3] >= 0) {
                        assertEquals(what, col[3], md.getPrecision(i + 1));
                    }
                    assertEquals(what, col[4], md.getScale(i + 1));
                    assertEquals(what, i == 0 ? ResultSetMetaData.columnNoNulls : ResultSetMetaData.columnNullable,
                            md.isNullable(i + 1));
                }
            }
        }
    }

    /** The value Calcite should produce for column {@code c} of a written row (raw units). */
    private static Object expected(int c, Object raw) {
        if (raw == null) {
            return null;
        }
        switch (String.valueOf(COLUMNS[c][0])) {
            case "u8": return (short) (int) (Integer) raw;
            case "u64": return new BigDecimal((String) raw);
            case "d": return (long) (Integer) raw * 86_400_000L;
            case "t_s":
            case "ts_s": return (Long) raw * 1000;
            case "t_us":
            case "ts_us": return Math.floorDiv((Long) raw, 1000L);
            case "ts_ns": return Math.floorDiv((Long) raw, 1_000_000L);
            default: return raw;
        }
    }

    private static final Calendar UTC = Calendar.getInstance(TimeZone.getTimeZone("UTC"));

    /** Column {@code c} of the current row, temporal values as UTC milliseconds. */
    private static Object actual(ResultSet rs, int c) throws SQLException {
        int type = (int) COLUMNS[c][1];
        Object v;
        switch (type) {
            case Types.DATE: {
                java.sql.Date d = rs.getDate(c + 1, UTC);
                v = d == null ? null : d.getTime();
                break;
            }
            case Types.TIME: {
                java.sql.Time t = rs.getTime(c + 1, UTC);
                v = t == null ? null : t.getTime();
                break;
            }
            case Types.TIMESTAMP: {
                java.sql.Timestamp t = rs.getTimestamp(c + 1, UTC);
                v = t == null ? null : t.getTime();
                break;
            }
            default:
                v = rs.getObject(c + 1);
        }
        return v;
    }

    private static void checkRows(Connection c, String sql, java.util.function.LongPredicate ids) throws SQLException {
        List<Object[]> written = TestData.types();
        List<Object[]> selected = new ArrayList<>();
        for (Object[] row : written) {
            if (ids.test((Long) row[0])) {
                selected.add(row);
            }
        }
        int n = 0;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                Object[] row = selected.get(n++);
                for (int col = 0; col < COLUMNS.length; col++) {
                    String what = sql + ": row " + row[0] + " column " + COLUMNS[col][0];
                    Object exp = expected(col, row[col]);
                    Object act = actual(rs, col);
                    if (exp == null) {
                        assertNull(what, act);
                    } else if (exp instanceof byte[] bytes) {
                        assertArrayEquals(what, bytes, (byte[]) act);
                    } else if (exp instanceof Float || exp instanceof Double) {
                        // Bit for bit: NaN equals NaN, -0.0 differs from 0.0.
                        assertEquals(what, exp, act);
                    } else {
                        assertEquals(what, exp, act);
                        assertEquals(what, exp.getClass(), act.getClass());
                    }
                }
            }
        }
        assertEquals(sql, selected.size(), n);
    }

    @Test
    public void everyValueOfEveryRow() throws SQLException {
        checkRows(push, "SELECT * FROM types ORDER BY id", id -> true);
        checkRows(plain, "SELECT * FROM types ORDER BY id", id -> true);
    }

    @Test
    public void valuesThroughAPushedFilter() throws SQLException {
        // The enumerator skips unselected rows by the filter's bitmap; the values must not shift.
        checkRows(push, "SELECT * FROM types WHERE id >= 2990 AND id < 3010 OR id = 8999 ORDER BY id",
                id -> id >= 2990 && id < 3010 || id == 8999);
        checkRows(push, "SELECT * FROM types WHERE s = 'AAPL' ORDER BY id", id -> "AAPL".equals(
                TestData.types().get((int) id)[13]));
    }
}
