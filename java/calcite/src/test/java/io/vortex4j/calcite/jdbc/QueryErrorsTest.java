package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.vortex4j.CancelledException;
import io.vortex4j.VortexException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import org.codehaus.commons.compiler.InternalCompilerException;
import org.junit.Test;

/** What each kind of failure becomes for a JDBC user, from the chains Calcite and Avatica build. */
public class QueryErrorsTest {
    private static SQLException wrappedByAvatica(Throwable cause) {
        return new SQLException("Error while executing SQL \"SELECT ...\": " + cause.getMessage(), cause);
    }

    @Test
    public void janinosReasonWithoutTheGeneratedCode() {
        String code = "public static class Baz implements Bindable {\n" + "  x = 1;\n".repeat(40_000);
        Throwable janino = new InternalCompilerException("Compiling \"Baz\": Line 36, Column 45",
                new InternalCompilerException("Code grows beyond 64 KB"));
        SQLException e = QueryErrors.toSqlException(
                wrappedByAvatica(new RuntimeException("Error while compiling generated Java code:\n" + code, janino)));
        assertEquals("54001", e.getSQLState());
        assertTrue(e.getMessage(), e.getMessage().startsWith("the query cannot be compiled: Code grows beyond 64 KB"));
        assertFalse(e.getMessage(), e.getMessage().contains("Bindable") || e.getMessage().contains("\n"));
        assertTrue(e.getMessage(), e.getMessage().length() < 300);
    }

    @Test
    public void timeoutsAndCancels() {
        SQLException timeout = QueryErrors.toSqlException(
                wrappedByAvatica(new RuntimeException(new CancelledException("the query timed out after 1000 ms", true))));
        assertTrue(timeout instanceof SQLTimeoutException);
        assertEquals("the query timed out after 1000 ms", timeout.getMessage());
        SQLException cancel = QueryErrors.toSqlException(new CancelledException("the query was cancelled", false));
        assertFalse(cancel instanceof SQLTimeoutException);
        assertEquals("57014", cancel.getSQLState());
        assertEquals("57014", QueryErrors.toSqlException(new SQLException("Statement canceled")).getSQLState());
    }

    @Test
    public void constantsThatFailInAStaticInitializer() {
        SQLException e = QueryErrors.toSqlException(
                new ExceptionInInitializerError(new NumberFormatException("For input string: \"abc\"")));
        assertTrue(e instanceof SQLDataException);
        assertEquals("cannot convert 'abc' to a number", e.getMessage());
        SQLException zero = QueryErrors.toSqlException(new ExceptionInInitializerError(new ArithmeticException("/ by zero")));
        assertEquals("22012", zero.getSQLState());
        assertEquals("division by zero", zero.getMessage());
    }

    @Test
    public void fileErrorsKeepTheirMessageAndCause() {
        VortexException v = new VortexException("/data/t.vortex: column 'sym': corrupt data: dictionary code 900 but the"
                + " dictionary has 101 entries");
        SQLException e = QueryErrors.toSqlException(wrappedByAvatica(new RuntimeException(v)));
        assertEquals(v.getMessage(), e.getMessage());
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        assertSame(v, root);
    }

    @Test
    public void errorsBecomeSqlExceptionsButTheJvmsOwnDoNot() {
        assertEquals("54001", QueryErrors.toSqlException(new StackOverflowError()).getSQLState());
        SQLException assertion = QueryErrors.toSqlException(new AssertionError("invalid plan\nmore"));
        assertEquals("AssertionError: invalid plan", assertion.getMessage());
        assertTrue(QueryErrors.translatable(new StackOverflowError()));
        assertFalse(QueryErrors.translatable(new OutOfMemoryError()));
    }

    @Test
    public void longMessagesAreCut() {
        SQLException e = QueryErrors.toSqlException(new IllegalStateException("x".repeat(5000)));
        assertTrue(e.getMessage().length() <= QueryErrors.MAX_MESSAGE + 40);
    }
}
