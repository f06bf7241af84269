package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.Sql;
import io.vortex4j.calcite.TestData;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Result columns the statement does not name are named by their expression's text. */
public class ColumnNamesTest {
    private static Connection push;
    private static Connection plain;

    @BeforeClass
    public static void open() throws SQLException {
        push = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir());
        plain = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + ";pushdown=false;planCache=0");
    }

    @AfterClass
    public static void close() throws SQLException {
        push.close();
        plain.close();
    }

    /** The column labels of {@code sql}'s result. */
    private static List<String> labels(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return labels(rs.getMetaData());
        }
    }

    private static List<String> labels(ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            assertEquals(md.getColumnLabel(i), md.getColumnName(i));
            out.add(md.getColumnLabel(i));
        }
        return out;
    }

    @Test
    public void expressionsAreNamedByTheirText() throws SQLException {
        assertEquals(List.of("count(*)", "sum(volume)", "volume + 1", "sym"),
                labels(push, "SELECT count(*), sum(volume), volume + 1, sym FROM trades GROUP BY sym, volume"));
        // Blanks made one space, none inside brackets; case and quotes as written.
        assertEquals(List.of("MAX(volume * 2)", "'a' || sym", "CAST(volume AS varchar)", "\"volume\" > 0"),
                labels(push, "SELECT MAX( volume\n   *  2 ), 'a' || sym, CAST(volume AS varchar), \"volume\" > 0 FROM trades"
                        + " GROUP BY sym, volume"));
        assertEquals(List.of("1"), labels(push, "SELECT 1"));
        assertEquals(List.of("1 + 1", "'x'"), labels(push, "SELECT 1 + 1, 'x'"));
        assertEquals(List.of("(SELECT max(volume) FROM trades)"), labels(push, "SELECT (SELECT max(volume) FROM trades)"));
    }

    @Test
    public void aliasesAndColumnsKeepTheirNamesAndNamesMayRepeat() throws SQLException {
        assertEquals(List.of("n", "volume", "sym", "total"),
                labels(push, "SELECT count(*) AS n, t.volume, sym, sum(volume) total FROM trades t GROUP BY sym, t.volume"));
        assertEquals(List.of("sum(volume)", "sum(volume)"), labels(push, "SELECT sum(volume), sum(volume) FROM trades"));
        // A sub-query's names are its columns' (repeated ones keep Calcite's, to stay referable).
        assertEquals(List.of("count(*)"), labels(push, "SELECT * FROM (SELECT count(*) FROM trades)"));
        assertEquals(List.of("EXPR$0", "EXPR$1"), labels(push, "SELECT * FROM (SELECT count(*), count(*) FROM trades)"));
        assertEquals(List.of("\"count(*)\" + 1"),
                labels(push, "SELECT \"count(*)\" + 1 FROM (SELECT count(*) FROM trades WHERE sym = 'AAPL')"));
        assertEquals(List.of("count(*)"),
                labels(push, "WITH c AS (SELECT count(*) FROM trades) SELECT * FROM c"));
        assertEquals(List.of("sum(volume)", "count(*)"),
                labels(push, "SELECT sum(volume), count(*) FROM trades UNION ALL SELECT 1, 2"));
    }

    /** The names change nothing else: the same answers, pushed or not, and the same pushed plan. */
    @Test
    public void answersAndPlansStayTheSame() throws SQLException {
        String sql = "SELECT sym, count(*), sum(volume), max(price) FROM trades WHERE volume > 100 GROUP BY sym ORDER BY sym";
        assertEquals(Sql.answer(plain, sql), Sql.answer(push, sql));
        assertEquals(Sql.answer(push, sql.replace("count(*), sum(volume), max(price)",
                "count(*) AS a, sum(volume) AS b, max(price) AS c")), Sql.answer(push, sql));
        String plan = Sql.explain(push, "SELECT count(*), sum(volume) FROM trades WHERE sym = 'AAPL'");
        assertTrue(plan, plan.startsWith("VortexAggregateScan(") && plan.lines().count() == 1);
        // Run again from the plan cache, and prepared: the same names.
        for (int run = 0; run < 2; run++) {
            assertEquals(List.of("sym", "count(*)", "sum(volume)", "max(price)"), labels(push, sql));
        }
        try (PreparedStatement p = push.prepareStatement("SELECT count(*), sum(volume) + ? FROM trades WHERE sym = ?")) {
            assertEquals(List.of("count(*)", "sum(volume) + ?"), labels(p.getMetaData()));
            p.setInt(1, 1);
            p.setString(2, "AAPL");
            try (ResultSet rs = p.executeQuery()) {
                assertEquals(List.of("count(*)", "sum(volume) + ?"), labels(rs.getMetaData()));
                assertTrue(rs.next());
            }
        }
    }
}
