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
import java.util.List;
import org.junit.Test;

/** Statements in SQL text: a script's statements, and a statement's terminating {@code ;}. */
public class StatementsTest {
    @Test
    public void aScriptSplitsAtSemicolonsOutsideStringsNamesAndComments() {
        assertEquals(List.of("SELECT 1", "SELECT ';' AS \"a;b\"", "/* ; */ SELECT 2 -- c;"),
                Statements.split("SELECT 1; SELECT ';' AS \"a;b\";\n/* ; */ SELECT 2 -- c;\n;;"));
        assertEquals(List.of("SELECT 'it''s; here'"), Statements.split("SELECT 'it''s; here';"));
        assertEquals(List.of(), Statements.split(" ; -- nothing\n/* at all */ ;"));
        assertEquals(List.of("SELECT 1"), Statements.split("SELECT 1"));
    }

    @Test
    public void theTerminatorAndWhatFollowsItAreDropped() {
        assertEquals("SELECT 1", Statements.withoutTerminator("SELECT 1;"));
        assertEquals("SELECT 1 ", Statements.withoutTerminator("SELECT 1 ; \n"));
        assertEquals("SELECT 1", Statements.withoutTerminator("SELECT 1;; -- done\n/* really */"));
        assertEquals("\n  SELECT 'a;'", Statements.withoutTerminator("\n  SELECT 'a;';"));
        // Nothing to drop, or a second statement (which the parser reports).
        assertEquals("SELECT 1", Statements.withoutTerminator("SELECT 1"));
        assertEquals("SELECT 1 -- ;", Statements.withoutTerminator("SELECT 1 -- ;"));
        assertEquals("SELECT 1; SELECT 2", Statements.withoutTerminator("SELECT 1; SELECT 2"));
        assertEquals("SELECT 1; 'x'", Statements.withoutTerminator("SELECT 1; 'x'"));
    }

    /** Through JDBC, every way of running SQL text takes a statement ending with {@code ;}. */
    @Test
    public void jdbcTakesAStatementEndingWithASemicolon() throws SQLException {
        try (Connection c = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir())) {
            long count;
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM trades WHERE sym = 'AAPL'")) {
                assertTrue(rs.next());
                count = rs.getLong(1);
            }
            String sql = "SELECT count(*) FROM trades WHERE sym = 'AAPL';  -- AAPL only\n";
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                assertTrue(rs.next());
                assertEquals(count, rs.getLong(1));
            }
            try (Statement s = c.createStatement()) {
                assertTrue(s.execute(sql));
                try (ResultSet rs = s.getResultSet()) {
                    assertTrue(rs.next());
                    assertEquals(count, rs.getLong(1));
                }
            }
            try (PreparedStatement p = c.prepareStatement("SELECT count(*) FROM trades WHERE sym = ?;")) {
                p.setString(1, "AAPL");
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(count, rs.getLong(1));
                    assertFalse(rs.next());
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1;")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
        }
    }
}
