package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.calcite.jdbc.VortexDriver;
import io.vortex4j.cli.sample.Trades;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Files by path in FROM on {@code jdbc:vortex:} connections: confined to the connection's folder
 * by default ({@code ..}, absolute paths elsewhere and symbolic links out refused), off with
 * {@code paths=none}, anywhere with {@code paths=any}; answers equal to the folder's table.
 */
public class PathAccessTest {
    private static Path root;
    private static Path data;
    private static Path outside;

    @BeforeClass
    public static void write() throws Exception {
        root = Files.createTempDirectory("vortex4j-paths");
        data = Files.createDirectories(root.resolve("data"));
        Files.createDirectories(data.resolve("sub"));
        Trades.write(data.resolve("sub/t.vortex"), 3_000, 3, n -> {});
        Trades.write(data.resolve("trades.vortex"), 5_000, 5, n -> {});
        outside = root.resolve("secret.vortex");
        Trades.write(outside, 1_000, 1, n -> {});
        Files.createSymbolicLink(data.resolve("link.vortex"), outside);
    }

    @AfterClass
    public static void clean() throws Exception {
        for (Path p : new Path[] {data.resolve("link.vortex"), data.resolve("sub/t.vortex"), data.resolve("sub"),
            data.resolve("trades.vortex"), data, outside, root}) {
            Files.deleteIfExists(p);
        }
    }

    private static Connection connect(String paths) throws SQLException {
        Properties p = new Properties();
        if (paths != null) {
            p.setProperty("paths", paths);
        }
        return DriverManager.getConnection(VortexDriver.PREFIX + data, p);
    }

    private static long count(Connection c, String from) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + from)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void refused(Connection c, String from, String why) {
        try {
            count(c, from);
            fail(from + " was read");
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(why));
        }
    }

    @Test
    public void insideTheFolderByDefault() throws SQLException {
        try (Connection c = connect(null)) {
            assertEquals(count(c, "trades"), count(c, "'trades.vortex'"));
            assertEquals(5_000, count(c, "'" + data.resolve("trades.vortex") + "'"));
            assertEquals(3_000, count(c, "'sub/t.vortex'"));
            assertEquals(3_000, count(c, "\"sub/t.vortex\""));
            refused(c, "'../secret.vortex'", "'..' is refused");
            refused(c, "'sub/../../secret.vortex'", "'..' is refused");
            refused(c, "'" + outside + "'", "outside the connection's folder");
            refused(c, "'link.vortex'", "symbolic link out of the connection's folder");
        }
    }

    @Test
    public void offAndAnywhere() throws SQLException {
        try (Connection c = connect("none")) {
            refused(c, "'trades.vortex'", "paths in FROM are off");
            assertEquals(5_000, count(c, "trades"));
        }
        try (Connection c = connect("any")) {
            assertEquals(1_000, count(c, "'../secret.vortex'"));
            assertEquals(1_000, count(c, "'link.vortex'"));
        }
        try {
            connect("everything").close();
            fail();
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("paths must be none, folder or any"));
        }
    }

    /** The rewrite touches only string literals right after a query's FROM or JOIN. */
    @Test
    public void onlyLiteralsAfterFromAreRewritten() {
        org.apache.calcite.avatica.util.Quoting q = org.apache.calcite.avatica.util.Quoting.DOUBLE_QUOTE;
        assertEquals("SELECT * FROM \"a.vortex\" x JOIN \"b'c.vortex\" y ON x.k = y.k WHERE s = 'FROM'",
                PathLiterals.rewrite("SELECT * FROM 'a.vortex' x JOIN 'b''c.vortex' y ON x.k = y.k WHERE s = 'FROM'", q).sql);
        String untouched = "SELECT SUBSTRING(s FROM 'x'), TRIM(' ' FROM s), 'FROM ''y''' -- FROM 'z'\nFROM t"
                + " WHERE s IS DISTINCT FROM 'a' AND s IS NOT DISTINCT FROM 'b'";
        assertEquals(untouched, PathLiterals.rewrite(untouched, q).sql);
        assertEquals("SELECT 1 FROM (SELECT * FROM \"p/q.vortex\")",
                PathLiterals.rewrite("SELECT 1 FROM (SELECT * FROM 'p/q.vortex')", q).sql);
        assertEquals("SELECT * FROM `a.vortex`",
                PathLiterals.rewrite("SELECT * FROM 'a.vortex'", org.apache.calcite.avatica.util.Quoting.BACK_TICK).sql);
    }
}
