package io.vortex4j.calcite.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.calcite.NativeHeld;
import io.vortex4j.calcite.TestData;
import io.vortex4j.calcite.VortexSql;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The JDBC contract of {@code jdbc:vortex:} connections: one connection shared by threads,
 * {@code setQueryTimeout} and {@code cancel()} (which stop the query and leave no scan, thread or
 * native memory behind), and SQL errors as one-line {@link SQLException}s, the same every time a
 * statement runs (no broken plan kept by the plan cache).
 */
public class JdbcContractTest {
    private static final String[] SYMBOLS = {"AAPL", "MSFT", "NVDA", "IBM", "SHOP", "nope"};
    /** A self-join on a low-cardinality key: billions of pairs, far more than a second's work. */
    // ~4e9 joined rows; the condition on both sides keeps the planner from counting per key first.
    private static final String ENDLESS =
            "SELECT count(*) FROM trades a JOIN trades b ON a.sym = b.sym WHERE a.volume + b.volume > 0";

    private static Connection connection;
    /** Each symbol's row count, from a connection with push-down off (Calcite evaluates every row). */
    private static final Map<String, Long> COUNTS = new HashMap<>();

    @BeforeClass
    public static void open() throws SQLException {
        connection = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir());
        try (Connection plain = VortexSql.connect(TestData.dir(), false); Statement s = plain.createStatement()) {
            for (String sym : SYMBOLS) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM trades WHERE sym = '" + sym + "'")) {
                    rs.next();
                    COUNTS.put(sym, rs.getLong(1));
                }
            }
        }
        assertTrue(COUNTS.toString(), COUNTS.get("AAPL") > 0 && COUNTS.get("nope") == 0);
    }

    @AfterClass
    public static void close() throws SQLException {
        connection.close();
    }

    /** Eight threads creating, running and closing statements on one connection, all answers right. */
    @Test
    public void eightThreadsShareOneConnection() throws Exception {
        int threads = 8;
        int rounds = 150;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                results.add(pool.submit(() -> {
                    start.await();
                    int checked = 0;
                    for (int i = 0; i < rounds; i++) {
                        String sym = SYMBOLS[(id + i) % SYMBOLS.length];
                        long got;
                        if (i % 3 == 0) {
                            try (PreparedStatement p = connection.prepareStatement(
                                    "SELECT count(*) FROM trades WHERE sym = ?")) {
                                p.setString(1, sym);
                                got = single(p.executeQuery());
                            }
                        } else {
                            try (Statement s = connection.createStatement()) {
                                got = single(s.executeQuery("SELECT count(*) FROM trades WHERE sym = '" + sym + "'"));
                            }
                        }
                        assertEquals(sym, (long) COUNTS.get(sym), got);
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(rounds, (int) r.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public void aTimeoutStopsTheQueryAndReleasesItsScans() throws Exception {
        long live = NativeHeld.liveWithoutKeptCaches();
        int threads = Thread.activeCount();
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(1);
            long t = System.nanoTime();
            try {
                single(s.executeQuery(ENDLESS));
                fail("the query ran to its end within its timeout");
            } catch (SQLTimeoutException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("timed out after 1000 ms"));
            }
            long ms = (System.nanoTime() - t) / 1_000_000;
            assertTrue("stopped after " + ms + " ms", ms >= 1000 && ms < 15_000);
            // The statement is usable again, for a query that fits.
            s.setQueryTimeout(30);
            assertEquals((long) COUNTS.get("IBM"), single(s.executeQuery("SELECT count(*) FROM trades WHERE sym = 'IBM'")));
        }
        assertReleased(live, threads);
    }

    @Test
    public void cancelStopsTheQueryAndReleasesItsScans() throws Exception {
        long live = NativeHeld.liveWithoutKeptCaches();
        int threads = Thread.activeCount();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (Statement s = connection.createStatement()) {
            timer.schedule(() -> {
                s.cancel();
                return null;
            }, 300, TimeUnit.MILLISECONDS);
            long t = System.nanoTime();
            try {
                single(s.executeQuery(ENDLESS));
                fail("the cancelled query ran to its end");
            } catch (SQLException e) {
                assertFalse(e instanceof SQLTimeoutException);
                assertEquals(e.getMessage(), "57014", e.getSQLState());
            }
            long ms = (System.nanoTime() - t) / 1_000_000;
            assertTrue("stopped after " + ms + " ms", ms < 15_000);
        } finally {
            timer.shutdownNow();
            timer.awaitTermination(10, TimeUnit.SECONDS);
        }
        assertReleased(live, threads);
    }

    /** No scan left open (its native memory), no thread left running. */
    private static void assertReleased(long liveBefore, int threadsBefore) {
        long live = NativeHeld.liveWithoutKeptCaches();
        assertTrue(liveBefore + " -> " + live, live <= liveBefore + (8 << 20));
        // A pool's worker may still be finishing its exit after awaitTermination returned.
        long until = System.nanoTime() + 5_000_000_000L;
        while (Thread.activeCount() > threadsBefore && System.nanoTime() < until) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertTrue(threadsBefore + " -> " + Thread.getAllStackTraces().keySet(), Thread.activeCount() <= threadsBefore);
    }

    /** Failing SQL of each kind, each run twice on one connection: the same typed, one-line error both times. */
    @Test
    public void badSqlFailsTheSameWayEveryTime() throws Exception {
        Object[][] cases = {
            {"SELECT count(*) FROM trades WHERE volume = 'abc'", SQLDataException.class, "22018", "cannot convert 'abc'"},
            {"SELECT count(*) FROM trades WHERE price > 'x'", SQLDataException.class, "22018", "cannot convert 'x'"},
            {"SELECT 1/0", SQLDataException.class, "22012", "division by zero"},
            {"SELECT volume / 0 FROM trades", SQLDataException.class, "22012", "division by zero"},
            {"SELECT nope FROM trades", SQLException.class, "42000", "Column 'nope' not found"},
            {"SELECT FROM trades WHERE", SQLSyntaxErrorException.class, "42000", "line 1"},
        };
        for (Object[] c : cases) {
            String sql = (String) c[0];
            for (int run = 0; run < 2; run++) {
                try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                    fail(sql + " ran");
                } catch (SQLException e) {
                    String where = sql + ", run " + (run + 1) + ": " + e;
                    assertTrue(where, ((Class<?>) c[1]).isInstance(e));
                    assertEquals(where, c[2], e.getSQLState());
                    assertTrue(where, e.getMessage().contains((String) c[3]));
                    assertOneLine(e);
                }
            }
        }
        // Prepared, the failure is the same, and the connection keeps working.
        try (PreparedStatement p = connection.prepareStatement("SELECT volume / ? FROM trades")) {
            p.setInt(1, 0);
            for (int run = 0; run < 2; run++) {
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    fail("divided by zero");
                } catch (SQLDataException e) {
                    assertEquals("22012", e.getSQLState());
                }
            }
        }
        try (Statement s = connection.createStatement()) {
            assertEquals((long) COUNTS.get("MSFT"), single(s.executeQuery("SELECT count(*) FROM trades WHERE sym = 'MSFT'")));
        }
    }

    private static void assertOneLine(SQLException e) {
        assertFalse(e.getMessage(), e.getMessage().contains("\n"));
        assertTrue(e.getMessage(), e.getMessage().length() <= QueryErrors.MAX_MESSAGE + 200);
    }

    private static long single(ResultSet rs) throws SQLException {
        try (rs) {
            assertTrue(rs.next());
            long v = rs.getLong(1);
            assertFalse(rs.next());
            return v;
        }
    }
}
