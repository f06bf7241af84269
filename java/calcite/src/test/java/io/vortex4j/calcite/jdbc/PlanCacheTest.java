package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.calcite.Sql;
import io.vortex4j.calcite.TestData;
import io.vortex4j.calcite.VortexSchema;
import io.vortex4j.calcite.VortexSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.runtime.Hook;
import org.junit.Test;

/**
 * The per-connection plan cache ({@link PlanCache} behind {@link VortexDriver}): a query run again
 * is not parsed again, yet every answer stays what a connection without the cache gives, whatever
 * the default schema, the row limit, the parameters or the number of result sets open at once.
 * Parses are counted with Calcite's {@link Hook#PARSE_TREE}, which fires once per planning.
 */
public class PlanCacheTest {
    static final String EQ = "SELECT count(*) AS n FROM trades WHERE sym = 'AAPL'";
    static final String GROUP = "SELECT sym, count(*) AS n, sum(volume) AS v FROM trades"
            + " WHERE sym IN ('AAPL', 'MSFT', 'NVDA') GROUP BY sym";

    /** Runs {@code work} and returns how many statements Calcite parsed (planned) meanwhile. */
    private static int parses(SqlWork work) throws Exception {
        AtomicInteger n = new AtomicInteger();
        try (Hook.Closeable ignored = Hook.PARSE_TREE.addThread((java.util.function.Consumer<Object>) x -> n.incrementAndGet())) {
            work.run();
        }
        return n.get();
    }

    interface SqlWork {
        void run() throws Exception;
    }

    private static Connection uncached() throws SQLException {
        return DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + ";planCache=0");
    }

    @Test
    public void aQueryRunAgainIsNotPlannedAgainAndAnswersTheSame() throws Exception {
        try (Connection cached = VortexSql.connect(TestData.dir(), true); Connection fresh = uncached()) {
            for (String sql : List.of(EQ, GROUP)) {
                List<String> expected = Sql.answer(fresh, sql);
                assertEquals(1, parses(() -> assertEquals(expected, Sql.answer(cached, sql))));
                assertEquals(0, parses(() -> {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(expected, Sql.answer(cached, sql));
                    }
                }));
                // A prepared statement of the same text reuses the plan too.
                assertEquals(0, parses(() -> {
                    try (PreparedStatement ps = cached.prepareStatement(sql)) {
                        assertEquals(expected, answer(ps));
                    }
                }));
                assertEquals(1, parses(() -> Sql.answer(fresh, sql)));
                assertEquals(1, parses(() -> Sql.answer(fresh, sql)));
            }
            // Other text, even only in case, is another plan.
            assertEquals(1, parses(() -> Sql.answer(cached, EQ.toLowerCase())));
        }
    }

    @Test
    public void resultSetsOfOneCachedPlanRunSideBySide() throws Exception {
        try (Connection c = VortexSql.connect(TestData.dir(), true); Connection fresh = uncached()) {
            String sql = "SELECT ts, sym, volume FROM trades WHERE sym IN ('AAPL', 'MSFT') OR volume < 50";
            List<String> expected = Sql.answer(fresh, sql);
            assertTrue(expected.size() > 1000);
            Sql.answer(c, sql);
            try (Statement s1 = c.createStatement(); Statement s2 = c.createStatement();
                 ResultSet a = s1.executeQuery(sql); ResultSet b = s2.executeQuery(sql)) {
                List<String> ra = new ArrayList<>();
                List<String> rb = new ArrayList<>();
                boolean moreA = true;
                boolean moreB = true;
                while (moreA || moreB) {
                    if (moreA && (moreA = a.next())) {
                        ra.add(List.of(a.getLong(1), String.valueOf(a.getString(2)), a.getLong(3)).toString());
                    }
                    if (moreB && (moreB = b.next())) {
                        rb.add(List.of(b.getLong(1), String.valueOf(b.getString(2)), b.getLong(3)).toString());
                    }
                }
                Collections.sort(ra);
                Collections.sort(rb);
                List<String> exp = new ArrayList<>();
                try (Statement s = fresh.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                        exp.add(List.of(rs.getLong(1), String.valueOf(rs.getString(2)), rs.getLong(3)).toString());
                    }
                }
                Collections.sort(exp);
                assertEquals(exp, ra);
                assertEquals(exp, rb);
            }
        }
    }

    @Test
    public void theDefaultSchemaAndTheRowLimitArePartOfTheKey() throws Exception {
        Path other = Files.createTempDirectory("vortex4j-other");
        Files.copy(TestData.dir().resolve("zones.vortex"), other.resolve("trades.vortex"));
        try (Connection c = VortexSql.connect(TestData.dir(), true)) {
            c.unwrap(CalciteConnection.class).getRootSchema().add("other", new VortexSchema(other, true));
            String count = "SELECT count(*) AS n FROM trades";
            assertEquals(List.of("[" + TestData.TRADES_ROWS + "]"), Sql.answer(c, count));
            c.setSchema("other");
            long zoneRows = (long) TestData.ZONE_BATCHES * TestData.ZONE_ROWS;
            assertEquals(1, parses(() -> assertEquals(List.of("[" + zoneRows + "]"), Sql.answer(c, count))));
            c.setSchema(VortexSql.SCHEMA);
            assertEquals(0, parses(() -> assertEquals(List.of("[" + TestData.TRADES_ROWS + "]"), Sql.answer(c, count))));

            String rows = "SELECT ts FROM trades WHERE sym = 'AAPL'";
            int all = Sql.answer(c, rows).size();
            assertTrue(all > 10);
            try (Statement s = c.createStatement()) {
                s.setMaxRows(3);
                try (ResultSet rs = s.executeQuery(rows)) {
                    int n = 0;
                    while (rs.next()) {
                        n++;
                    }
                    assertEquals(3, n);
                }
            }
            assertEquals(all, Sql.answer(c, rows).size());
        }
    }

    @Test
    public void parametersAreBoundPerExecutionOfACachedPlan() throws Exception {
        String sql = "SELECT count(*) FROM trades WHERE sym = ? AND volume > ?";
        try (Connection c = VortexSql.connect(TestData.dir(), true); Connection fresh = uncached()) {
            for (String sym : List.of("AAPL", "MSFT", "none")) {
                for (long volume : new long[] {0, 500, 5000}) {
                    long expected = count(fresh, "SELECT count(*) FROM trades WHERE sym = '" + sym + "' AND volume > " + volume);
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        ps.setString(1, sym);
                        ps.setLong(2, volume);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertTrue(rs.next());
                            assertEquals(sym + " > " + volume, expected, rs.getLong(1));
                        }
                    }
                }
            }
            assertNotEquals(0, count(fresh, "SELECT count(*) FROM trades WHERE sym = 'AAPL' AND volume > 500"));
        }
    }

    @Test
    public void leastRecentlyUsedPlansAreDroppedBeyondTheCapacity() throws Exception {
        String q1 = "SELECT count(*) FROM trades WHERE sym = 'AAPL'";
        String q2 = "SELECT count(*) FROM trades WHERE sym = 'MSFT'";
        String q3 = "SELECT count(*) FROM trades WHERE sym = 'NVDA'";
        try (Connection c = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + ";planCache=2")) {
            assertEquals(3, parses(() -> {
                Sql.answer(c, q1);
                Sql.answer(c, q2);
                Sql.answer(c, q1);
                Sql.answer(c, q3);
            }));
            assertEquals(0, parses(() -> Sql.answer(c, q1)));
            assertEquals(1, parses(() -> Sql.answer(c, q2)));
        }
        try (Connection c = uncached()) {
            assertEquals(2, parses(() -> {
                Sql.answer(c, q1);
                Sql.answer(c, q1);
            }));
        }
    }

    @Test
    public void theUrlNamesTheFolderAndOptions() throws Exception {
        try (Connection byUrl = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + ";pushdown=false");
             Connection byProperty = DriverManager.getConnection(VortexDriver.PREFIX, props("directory", TestData.dir().toString()));
             Connection ref = VortexSql.connect(TestData.dir(), true)) {
            assertEquals(Sql.answer(ref, GROUP), Sql.answer(byUrl, GROUP));
            assertEquals(Sql.answer(ref, GROUP), Sql.answer(byProperty, GROUP));
            assertTrue(Sql.explain(byUrl, EQ), !Sql.explain(byUrl, EQ).contains("filter="));
            assertTrue(Sql.explain(byProperty, EQ), Sql.explain(byProperty, EQ).contains("filter="));
        }
        assertRejected(VortexDriver.PREFIX, "no directory");
        assertRejected(VortexDriver.PREFIX + TestData.dir() + ";pushdown=maybe", "pushdown must be true or false");
        assertRejected(VortexDriver.PREFIX + TestData.dir() + ";planCache=-1", "planCache must be");
        assertRejected(VortexDriver.PREFIX + TestData.dir() + ";oops", "malformed property 'oops'");
        assertEquals(null, new VortexDriver().connect("jdbc:calcite:", new Properties()));
    }

    private static void assertRejected(String url, String message) {
        try (Connection c = DriverManager.getConnection(url)) {
            fail("opened " + url);
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(message));
        }
    }

    private static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static List<String> answer(PreparedStatement ps) throws SQLException {
        return Sql.answer(ps.executeQuery());
    }
}
