package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.stores.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code jdbc:vortex:s3://bucket/prefix} (an S3 API server in this JVM, {@link S3Server}) gives
 * the answers of Calcite without push-down over the same files on disk: one file per table, ten
 * files, Hive prefixes, and files named by their location in FROM.
 */
public class StoreTablesTest extends WithConnections {
    private static S3Server server;
    private static Path local;

    @BeforeClass
    public static void upload() throws Exception {
        server = S3Server.start();
        server.createBucket("lake");
        server.put("lake", "warehouse/trades.vortex", TestData.dir().resolve("trades.vortex"));
        server.put("lake", "warehouse/types.vortex", TestData.dir().resolve("types.vortex"));
        local = Files.createTempDirectory("vortex4j-store-tables");
        DatasetTablesTest.split(TestData.dir().resolve("trades.vortex"), local.resolve("ten/trades"), 10);
        DatasetTablesTest.split(TestData.dir().resolve("types.vortex"), local.resolve("ten/types"), 10);
        DatasetTablesTest.writeHive(local.resolve("hive/hive"));
        server.putTree("lake", "ten/", local.resolve("ten"));
        server.putTree("lake", "hive/", local.resolve("hive"));
    }

    @AfterClass
    public static void stop() throws Exception {
        server.close();
        DatasetTablesTest.delete(local);
    }

    /** A connection over {@code location} with the server's properties in the URL. */
    private static Connection connect(String location, String more) throws SQLException {
        StringBuilder url = new StringBuilder("jdbc:vortex:" + location);
        for (Map.Entry<String, String> p : S3Server.properties(server.endpoint()).entrySet()) {
            url.append(';').append(p.getKey()).append('=').append(p.getValue());
        }
        return DriverManager.getConnection(url + more);
    }

    @Test
    public void tablesInABucketGiveTheLocalAnswers() throws SQLException {
        try (Connection one = connect("s3://lake/warehouse", ""); Connection ten = connect("s3://lake/ten/", "")) {
            for (String sql : DatasetTablesTest.workload(0, 2)) {
                List<List<Object>> expected = Answers.sorted(Sql.rows(plain, sql));
                Answers.assertClose("one file: " + sql, expected, Answers.sorted(Sql.rows(one, sql)));
                Answers.assertClose("ten files: " + sql, expected, Answers.sorted(Sql.rows(ten, sql)));
            }
            String plan = Sql.explain(ten, "SELECT count(*) FROM trades WHERE sym = 'AAPL'");
            assertTrue(plan, plan.contains("files=[10 of 10]"));
            assertFalse(plan, plan.contains(S3Server.SECRET_KEY));
        }
    }

    @Test
    public void hivePrefixesGiveTheFlatAnswers() throws SQLException {
        try (Connection hive = connect("s3://lake/hive", "")) {
            String[] sqls = {
                "SELECT d, v, c, count(*), sum(volume), min(price), max(ts) FROM hive GROUP BY d, v, c",
                "SELECT count(*), sum(volume), avg(price) FROM hive WHERE v = 1 AND sym = 'AAPL'",
                "SELECT d, count(*) FROM hive WHERE c IS NULL GROUP BY d",
            };
            for (String sql : sqls) {
                List<List<Object>> expected = Answers.sorted(Sql.rows(plain, DatasetTablesTest.flat(sql)));
                assertFalse(sql, expected.isEmpty());
                Answers.assertClose(sql, expected, Answers.sorted(Sql.rows(hive, sql)));
            }
            String plan = Sql.explain(hive, "SELECT count(*) FROM hive WHERE d = DATE '2026-01-02' AND v = 1");
            assertTrue(plan, plan.contains("files=[3 of 18]"));
        }
    }

    @Test
    public void locationsInFromAreReadAsTheConnectionAllows() throws SQLException {
        String sql = "SELECT sym, count(*), sum(volume) FROM trades GROUP BY sym";
        List<List<Object>> expected = Answers.sorted(Sql.rows(plain, sql));
        try (Connection c = connect("s3://lake/warehouse", "")) {
            Answers.assertClose("relative", expected,
                    Answers.sorted(Sql.rows(c, sql.replace("FROM trades", "FROM 'trades.vortex'"))));
            Answers.assertClose("glob", expected,
                    Answers.sorted(Sql.rows(c, sql.replace("FROM trades", "FROM 's3://lake/ten/trades/*.vortex'"))));
            fail("read a location outside the connection's");
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("outside the connection's location s3://lake/warehouse"));
        }
        try (Connection c = connect("s3://lake/warehouse", ";paths=any")) {
            Answers.assertClose("any", expected,
                    Answers.sorted(Sql.rows(c, sql.replace("FROM trades", "FROM 's3://lake/ten/trades/*.vortex'"))));
        }
    }

    @Test
    public void aBadPropertyIsAConnectionErrorWithoutItsValue() {
        try (Connection c = DriverManager.getConnection("jdbc:vortex:s3://lake/warehouse;s3.secret_key=hunter2", new Properties())) {
            fail("connected with an unknown store property");
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("s3.secret_key"));
            assertFalse(e.getMessage(), e.getMessage().contains("hunter2"));
        }
    }
}
