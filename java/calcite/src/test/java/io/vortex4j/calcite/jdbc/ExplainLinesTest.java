package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.TestData;
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

/** EXPLAIN gives one row per line of the plan, in the column {@code plan}. */
public class ExplainLinesTest {
    private static Connection connection;

    @BeforeClass
    public static void open() throws SQLException {
        connection = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir());
    }

    @AfterClass
    public static void close() throws SQLException {
        connection.close();
    }

    private static List<String> lines(ResultSet rs) throws SQLException {
        try (rs) {
            assertEquals(1, rs.getMetaData().getColumnCount());
            assertEquals("plan", rs.getMetaData().getColumnLabel(1));
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString("plan"));
            }
            return out;
        }
    }

    @Test
    public void aRowPerOperatorIndentedUnderItsInput() throws SQLException {
        String sql = "EXPLAIN PLAN FOR SELECT sym, count(*) AS n FROM trades WHERE volume > 100 GROUP BY sym ORDER BY n DESC";
        List<String> plan;
        try (Statement s = connection.createStatement()) {
            plan = lines(s.executeQuery(sql));
        }
        assertEquals(plan.toString(), 2, plan.size());
        assertTrue(plan.get(0), plan.get(0).startsWith("EnumerableSort("));
        assertTrue(plan.get(1), plan.get(1).startsWith("  VortexAggregateScan(") && plan.get(1).contains("filter=[volume > 100]"));
        for (String line : plan) {
            assertFalse(line, line.contains("\n") || line.isBlank());
        }
        // From the plan cache, prepared, and with a ';': the same rows.
        try (Statement s = connection.createStatement()) {
            assertEquals(plan, lines(s.executeQuery(sql)));
            assertEquals(plan, lines(s.executeQuery(sql + ";")));
        }
        try (PreparedStatement p = connection.prepareStatement(sql)) {
            assertEquals(plan, lines(p.executeQuery()));
        }
    }

    /** A plan as a document (JSON) is one row, to read whole. */
    @Test
    public void aDocumentIsOneRow() throws SQLException {
        try (Statement s = connection.createStatement()) {
            List<String> json = lines(s.executeQuery("EXPLAIN PLAN AS JSON FOR SELECT count(*) FROM trades"));
            assertEquals(1, json.size());
            assertTrue(json.get(0), json.get(0).startsWith("{") && json.get(0).contains("\n"));
        }
    }
}
