package org.apache.calcite.jdbc;

import io.vortex4j.calcite.jdbc.QueryErrors;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.Field;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * The JDBC objects of {@code jdbc:vortex:} connections: Calcite's own (this class stands in for
 * {@link CalciteJdbc41Factory}, whose connection, statement and result set classes are private),
 * with three repairs. It lives in Calcite's package because those classes' constructors are
 * package-private.
 *
 * <ul>
 *   <li><b>Threads.</b> Avatica numbers statements with an unsynchronized {@code
 *       statementCount++} and Calcite keeps them in a {@code HashMap}; a connection shared by
 *       threads handed two statements the same id (an {@link AssertionError} from {@code
 *       createStatement}). Statements are created one at a time per connection, and the map is a
 *       {@link ConcurrentHashMap}.
 *   <li><b>Errors.</b> Whatever executing or iterating a query throws, {@link Error}s included,
 *       reaches the caller as the {@link SQLException} of {@link QueryErrors}: one readable line,
 *       the right subclass ({@link java.sql.SQLTimeoutException} for a timeout).
 *   <li><b>Preparing.</b> The same for {@code prepareStatement}, where planning fails.
 * </ul>
 */
public class VortexJdbcFactory extends CalciteFactory {
    /** Calcite's factory, for what needs no repair (database metadata). */
    private final CalciteJdbc41Factory calcite = new CalciteJdbc41Factory();

    /** Created by Avatica's driver from the class name (see {@code VortexDriver}); JDBC 4.1. */
    public VortexJdbcFactory() {
        super(4, 1);
    }

    @Override
    public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
        return calcite.newDatabaseMetaData(connection);
    }

    @Override
    public java.sql.ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature) {
        return calcite.newResultSetMetaData(statement, signature);
    }

    @Override
    public CalciteConnectionImpl newConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
            Properties info, CalciteSchema rootSchema, JavaTypeFactory typeFactory) {
        return new Connection((Driver) driver, factory, url, info, rootSchema, typeFactory);
    }

    @Override
    public CalciteStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h,
            int resultSetType, int resultSetConcurrency, int resultSetHoldability) {
        // The statement's constructor takes the next id from the connection's counter.
        synchronized (connection) {
            return new Statement((CalciteConnectionImpl) connection, h, resultSetType, resultSetConcurrency,
                    resultSetHoldability);
        }
    }

    @Override
    public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
            Meta.Signature signature, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        synchronized (connection) {
            return new PreparedStatement((CalciteConnectionImpl) connection, h,
                    (CalcitePrepare.CalciteSignature<?>) signature, resultSetType, resultSetConcurrency,
                    resultSetHoldability);
        }
    }

    @Override
    public CalciteResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
            TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        return new Results(statement, (CalcitePrepare.CalciteSignature<?>) signature,
                newResultSetMetaData(statement, signature), timeZone, firstFrame);
    }

    /** Runs an execution step, translating whatever it throws. */
    interface Step<T> {
        T run() throws SQLException;
    }

    static <T> T translating(Step<T> step) throws SQLException {
        try {
            return step.run();
        } catch (SQLException | RuntimeException | Error e) {
            if (!QueryErrors.translatable(e)) {
                throw e;
            }
            throw QueryErrors.toSqlException(e);
        }
    }

    /** Calcite's connection with a concurrent statement map and translated prepare errors. */
    static final class Connection extends CalciteConnectionImpl {
        Connection(Driver driver, AvaticaFactory factory, String url, Properties info, CalciteSchema rootSchema,
                JavaTypeFactory typeFactory) {
            super(driver, factory, url, info, rootSchema, typeFactory);
            concurrentStatementMap(server);
        }

        @Override
        public CalcitePreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                int resultSetHoldability) throws SQLException {
            return translating(() -> super.prepareStatement(sql, resultSetType, resultSetConcurrency,
                    resultSetHoldability));
        }

        /** Swaps the server's {@code HashMap} of statements for a concurrent one. */
        @SuppressWarnings("unchecked")
        private static void concurrentStatementMap(Object server) {
            try {
                Field f = server.getClass().getDeclaredField("statementMap");
                f.setAccessible(true);
                f.set(server, new ConcurrentHashMap<>((Map<Integer, Object>) f.get(server)));
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException("this Calcite version keeps statements differently; "
                        + "VortexJdbcFactory cannot make connections thread-safe", e);
            }
        }
    }

    /** A statement whose executions throw translated errors. */
    static final class Statement extends CalciteStatement {
        Statement(CalciteConnectionImpl connection, Meta.StatementHandle h, int resultSetType,
                int resultSetConcurrency, int resultSetHoldability) {
            super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
        }

        // execute, executeQuery and executeUpdate of SQL text all run here.
        @Override
        protected void executeInternal(String sql) throws SQLException {
            translating(() -> {
                super.executeInternal(sql);
                return null;
            });
        }

        @Override
        protected long[] executeBatchInternal() throws SQLException {
            return translating(super::executeBatchInternal);
        }
    }

    /** A prepared statement whose executions throw translated errors. */
    static final class PreparedStatement extends CalcitePreparedStatement {
        PreparedStatement(CalciteConnectionImpl connection, Meta.StatementHandle h,
                CalcitePrepare.CalciteSignature<?> signature, int resultSetType, int resultSetConcurrency,
                int resultSetHoldability) throws SQLException {
            super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
        }

        // executeUpdate and executeBatch run through executeLargeUpdate and executeLargeBatch.
        @Override
        public ResultSet executeQuery() throws SQLException {
            return translating(super::executeQuery);
        }

        @Override
        public boolean execute() throws SQLException {
            return translating(super::execute);
        }

        @Override
        public long executeLargeUpdate() throws SQLException {
            return translating(super::executeLargeUpdate);
        }

        @Override
        public long[] executeLargeBatch() throws SQLException {
            return translating(super::executeLargeBatch);
        }

        // The JDBC 4.0 setters AvaticaPreparedStatement leaves abstract, each to its parameter.

        @Override
        public void setRowId(int parameterIndex, RowId x) throws SQLException {
            getSite(parameterIndex).setRowId(x);
        }

        @Override
        public void setNString(int parameterIndex, String value) throws SQLException {
            getSite(parameterIndex).setNString(value);
        }

        @Override
        public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
            getSite(parameterIndex).setNCharacterStream(value, length);
        }

        @Override
        public void setNClob(int parameterIndex, NClob value) throws SQLException {
            getSite(parameterIndex).setNClob(value);
        }

        @Override
        public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
            getSite(parameterIndex).setClob(reader, length);
        }

        @Override
        public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
            getSite(parameterIndex).setBlob(inputStream, length);
        }

        @Override
        public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
            getSite(parameterIndex).setNClob(reader, length);
        }

        @Override
        public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
            getSite(parameterIndex).setSQLXML(xmlObject);
        }
    }

    /** A result set whose iteration throws translated errors (rows are computed as they are read). */
    static final class Results extends CalciteResultSet {
        Results(AvaticaStatement statement, CalcitePrepare.CalciteSignature<?> signature,
                java.sql.ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
            super(statement, signature, metaData, timeZone, firstFrame);
        }

        @Override
        public boolean next() throws SQLException {
            return translating(super::next);
        }
    }
}
