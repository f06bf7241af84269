package io.vortex4j.calcite;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.AfterClass;
import org.junit.BeforeClass;

/** Tests that compare a push-down connection with a plain one over {@link TestData#dir()}. */
public abstract class WithConnections {
    /** Push-down on. */
    protected static Connection push;
    /** Push-down off: Calcite evaluates everything (the reference). */
    protected static Connection plain;

    @BeforeClass
    public static void open() throws SQLException {
        push = VortexSql.connect(TestData.dir(), true);
        plain = VortexSql.connect(TestData.dir(), false);
    }

    @AfterClass
    public static void close() throws SQLException {
        push.close();
        plain.close();
    }
}
