package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.calcite.TestData;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** A statement that does not parse fails with where it stops and the token it stops at. */
public class SyntaxErrorTest {
    private static Connection connection;

    @BeforeClass
    public static void open() throws SQLException {
        connection = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir());
    }

    @AfterClass
    public static void close() throws SQLException {
        connection.close();
    }

    /** The SQLSyntaxErrorException (42000) {@code sql} fails with, checked to be one line. */
    private static SQLSyntaxErrorException error(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            fail(sql + " parsed");
            return null;
        } catch (SQLSyntaxErrorException e) {
            assertEquals(sql, "42000", e.getSQLState());
            assertTrue(e.getMessage(), !e.getMessage().contains("\n"));
            return e;
        }
    }

    @Test
    public void theMessageNamesTheLineTheColumnAndTheToken() throws SQLException {
        assertEquals("syntax error at line 1, column 1: unexpected \"SELEC\"", error("SELEC 1").getMessage());
        assertEquals("syntax error at line 4, column 1: unexpected \"GROUP\" (GROUP is a reserved word; to use it as a"
                + " column or table name, quote it: \"GROUP\")",
                error("SELECT sym,\n  count(*)\nFROM trades\nGROUP sym").getMessage());
        assertEquals("syntax error at line 1, column 10: unexpected \"#\"", error("SELECT 1 # 2").getMessage());
        assertEquals("syntax error at line 1, column 22: unexpected \"<>\"",
                error("SELECT * FROM trades <> 1").getMessage());
        // Prepared, the same.
        try {
            connection.prepareStatement("SELEC 1");
            fail("SELEC 1 prepared");
        } catch (SQLSyntaxErrorException e) {
            assertEquals("syntax error at line 1, column 1: unexpected \"SELEC\"", e.getMessage());
        }
    }

    @Test
    public void runningOutOfInputIsSaidSo() throws SQLException {
        assertEquals("syntax error at line 1, column 32: unexpected end of input",
                error("SELECT sym FROM trades ORDER BY").getMessage());
        assertEquals("syntax error at line 2, column 6: unexpected end of input",
                error("SELECT (1\n  + 2  \n\n").getMessage());
    }

    @Test
    public void hintsForAReservedWordAndASecondStatement() throws SQLException {
        assertEquals("syntax error at line 1, column 8: unexpected \"timestamp\" (timestamp is a reserved word; to use it"
                + " as a column or table name, quote it: \"timestamp\")", error("SELECT timestamp FROM trades").getMessage());
        assertEquals("syntax error at line 1, column 9: unexpected \";\" (one statement at a time)",
                error("SELECT 1; SELECT 2").getMessage());
    }

    /** {@link SyntaxError#in} finds the error behind the SQLException; its pointer shows the line and the column. */
    @Test
    public void thePointerShowsTheLineWithACaretUnderTheColumn() throws SQLException {
        String sql = "SELECT count(*)\n  FROM trades\n  WHERE sym = 'AAPL' AND AND volume > 10";
        SyntaxError e = SyntaxError.in(error(sql));
        assertNotNull(e);
        assertEquals(3, e.line());
        assertEquals(30, e.column());
        assertEquals("volume", e.token());
        assertEquals("LINE 3:   WHERE sym = 'AAPL' AND AND volume > 10\n" + " ".repeat(8 + 29) + "^", e.pointer(sql));
        assertSame(e, SyntaxError.in(new RuntimeException(e)));
        assertNull(SyntaxError.in(new SQLException("other")));
        // A long line is shown around the column.
        String longSql = "SELECT " + "volume + ".repeat(40) + "FROM trades";
        SyntaxError far = SyntaxError.in(error(longSql));
        assertNotNull(far);
        String[] lines = far.pointer(longSql).split("\n");
        assertTrue(lines[0], lines[0].startsWith("LINE 1: ...") && lines[0].length() < 200);
        assertEquals("+", far.token());
        assertEquals(lines[0].substring(lines[1].length() - 1), "+ FROM trades");
    }
}
