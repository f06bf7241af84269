package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The functions DuckDB and PostgreSQL users write (the PostgreSQL library and {@code
 * DialectFunctions}) and GROUP BY ordinals and aliases answer as DuckDB does over the same rows:
 * the {@code types} table's dates, timestamps and strings copied into DuckDB, each expression
 * evaluated on both, push-down on and off.
 */
public class DialectFunctionsTest extends WithConnections {
    private static Connection duck;

    @BeforeClass
    public static void copyIntoDuckDb() throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE types (id BIGINT, d DATE, ts_ms TIMESTAMP, ts_s TIMESTAMP, s VARCHAR)");
        }
        try (Statement st = plain.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, d, ts_ms, ts_s, s FROM types");
                PreparedStatement insert = duck.prepareStatement(
                        "INSERT INTO types VALUES (?, CAST(? AS DATE), CAST(? AS TIMESTAMP), CAST(? AS TIMESTAMP), ?)")) {
            int n = 0;
            while (rs.next()) {
                insert.setLong(1, rs.getLong(1));
                for (int c = 2; c <= 5; c++) {
                    insert.setString(c, rs.getString(c));
                }
                insert.addBatch();
                n++;
            }
            insert.executeBatch();
            assertEquals(TestData.TYPES_BATCHES * TestData.TYPES_BATCH_ROWS, n);
        }
    }

    @AfterClass
    public static void closeDuckDb() throws SQLException {
        duck.close();
    }

    @Test
    public void dateTruncAnswersAsDuckDb() throws SQLException {
        for (String unit : new String[] {"year", "quarter", "month", "week", "day", "decade"}) {
            same("date_trunc('" + unit + "', d)");
        }
        for (String unit : new String[] {"year", "quarter", "month", "week", "day", "hour", "minute", "second",
            "millisecond"}) {
            same("date_trunc('" + unit + "', ts_ms)");
            same("date_trunc('" + unit.toUpperCase() + "S', ts_s)");
        }
        same("date_trunc('hour', d)");
    }

    @Test
    public void strftimeAnswersAsDuckDb() throws SQLException {
        same("strftime(d, '%Y-%m-%d %j %a %A %b %B %y')");
        same("strftime(ts_ms, '%Y/%m/%d %H:%M:%S %I %p')");
    }

    @Test
    public void stringFunctionsAnswerAsDuckDb() throws SQLException {
        for (String expr : new String[] {"length(s)", "regexp_matches(s, 'a.')", "contains(s, 'a')",
            "ends_with(s, 'z')", "ifnull(s, '?')", "left(s, 2)", "starts_with(s, 'a')", "split_part(s, 'a', 2)",
            "upper(substr(s, 2, 3))"}) {
            // Calcite counts a character beyond U+FFFF as two (Java's length), DuckDB as one: docs/sql.md.
            sameRows("SELECT id, " + expr + " FROM types WHERE s NOT LIKE '%\uD83D\uDE00%' ORDER BY id");
        }
        same("contains(s, '\uD83D\uDE00')");
    }

    @Test
    public void groupByOrdinalsAndAliasesAnswerAsDuckDb() throws SQLException {
        sameRows("SELECT date_trunc('month', d) AS m, count(*) AS c FROM types GROUP BY 1 ORDER BY 1");
        sameRows("SELECT date_trunc('week', d) AS m, count(*) AS c FROM types GROUP BY m HAVING c > 3 ORDER BY m");
        sameRows("SELECT strftime(d, '%Y') AS y, string_agg(s, ',' ORDER BY s) AS names FROM types"
                + " WHERE id < 200 AND s NOT LIKE '%\uD83D\uDE00%' GROUP BY 1 ORDER BY 1"); // string order: docs/sql.md
    }

    @Test
    public void unsupportedFormsAreErrorsNamingThem() {
        refused("SELECT date_trunc('century', d) FROM types", "date_trunc takes the units");
        refused("SELECT date_trunc(s, d) FROM types", "date_trunc: the unit must be a string literal");
        refused("SELECT strftime(d, '%g') FROM types", "strftime does not take the format element '%g'");
        refused("SELECT strftime(d) FROM types", "Invalid number of arguments to function 'STRFTIME'");
    }

    /** {@code expr} over every row of {@code types}, on both connections, equals DuckDB's. */
    private static void same(String expr) throws SQLException {
        sameRows("SELECT id, " + expr + " FROM types ORDER BY id");
    }

    private static void sameRows(String sql) throws SQLException {
        List<List<String>> expected = rows(duck, sql);
        assertTrue(sql, !expected.isEmpty());
        for (Connection c : new Connection[] {push, plain}) {
            assertEquals(sql, expected, rows(c, sql));
        }
    }

    private static void refused(String sql, String message) {
        for (Connection c : new Connection[] {push, plain}) {
            try (Statement st = c.createStatement()) {
                st.executeQuery(sql).close();
                fail(sql + " should fail");
            } catch (SQLException e) {
                assertTrue(sql + ": " + e.getMessage(), e.getMessage().contains(message));
            }
        }
    }

    /** Each value as text, dates and timestamps as an instant to the millisecond ({@code 2020-03-01T00:00:00.000}). */
    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    String type = rs.getMetaData().getColumnTypeName(i).toUpperCase();
                    String v = rs.getString(i);
                    row.add(v == null ? null : type.startsWith("DATE") || type.startsWith("TIMESTAMP") ? instant(v)
                            : type.startsWith("BOOL") ? v.toLowerCase() : v);
                }
                out.add(row);
            }
        }
        return out;
    }

    /** {@code 2020-03-01}, {@code 2020-03-01 00:00:00}, {@code 2020-03-01 00:00:00.0} alike. */
    private static String instant(String v) {
        String t = v.length() == 10 ? v + " 00:00:00" : v;
        int dot = t.indexOf('.');
        String fraction = dot < 0 ? "" : t.substring(dot + 1);
        String base = dot < 0 ? t : t.substring(0, dot);
        return base.replace(' ', 'T') + "." + (fraction + "000").substring(0, 3);
    }
}
