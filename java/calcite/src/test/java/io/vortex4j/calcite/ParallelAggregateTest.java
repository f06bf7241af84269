package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Pushed aggregates over the splits of a dataset, run on 1, 2 and 8 threads: identical answers
 * (float sums too, bit for bit), equal to Calcite's over the single file; cancel and timeout stop
 * every worker, leaving no scan thread busy and no native memory held.
 */
public class ParallelAggregateTest extends WithConnections {
    private static Path root;
    /** Two threads over {@code big}, its footers read (the dataset keeps them) before memory is measured. */
    private static Connection twoThreads;

    @BeforeClass
    public static void writeFolders() throws Exception {
        root = Files.createTempDirectory("vortex4j-parallel");
        DatasetTablesTest.split(TestData.dir().resolve("trades.vortex"), root.resolve("trades"), 100);
        DatasetTablesTest.split(TestData.dir().resolve("types.vortex"), root.resolve("types"), 10);
        // Many splits of real work without writing much: hard links to one file, each its own path.
        Path big = root.resolve("big");
        Files.createDirectories(big);
        for (int i = 0; i < 1000; i++) {
            Files.createLink(big.resolve(String.format("f%04d.vortex", i)), TestData.dir().resolve("trades.vortex"));
        }
        twoThreads = connect(2);
        assertEquals(1000 * TestData.TRADES_ROWS, ((Number) Sql.scalar(twoThreads, "SELECT count(*) FROM big")).longValue());
        // A first run stopped by a timeout fills the process's caches (dictionaries, code tables),
        // so the tests measure what a stopped query leaves behind, not the caches.
        try (Statement s = twoThreads.createStatement()) {
            s.setQueryTimeout(1);
            s.executeQuery(LONG).close();
            fail("the aggregate ran to its end within its timeout");
        } catch (SQLTimeoutException expected) {
            // as intended
        }
    }

    @AfterClass
    public static void deleteFolders() throws Exception {
        twoThreads.close();
        DatasetTablesTest.delete(root);
    }

    private static Connection connect(int threads) throws SQLException {
        return DriverManager.getConnection("jdbc:vortex:" + root + ";threads=" + threads);
    }

    private static final String[] QUERIES = {
        "SELECT count(*) FROM trades WHERE sym = 'AAPL'",
        "SELECT count(*) FROM trades WHERE volume > 900 OR sym IS NULL",
        "SELECT sym, count(*), sum(volume) FROM trades WHERE sym IN ('AAPL', 'MSFT', 'V', 'SHOP') GROUP BY sym",
        "SELECT sym, count(*), sum(price), avg(price), min(ts), max(ts), min(volume) FROM trades GROUP BY sym",
        "SELECT count(*), sum(price), avg(price), sum(volume) FROM trades WHERE price BETWEEN 100 AND 200",
        "SELECT s, count(*), sum(f64), avg(f64), sum(u64), sum(amount), min(bin), max(d) FROM types GROUP BY s",
        "SELECT sum(f64), sum(i64), min(ts_ns), max(u64) FROM types WHERE qty < 30",
    };

    @Test
    public void threadCountsGiveIdenticalAnswers() throws SQLException {
        List<List<String>> byThreads = new ArrayList<>();
        for (int threads : new int[] {1, 2, 8}) {
            try (Connection c = connect(threads)) {
                List<String> answers = new ArrayList<>();
                for (String sql : QUERIES) {
                    String plan = Sql.explain(c, sql);
                    assertTrue(sql + " is pushed: " + plan, plan.contains("VortexAggregateScan"));
                    answers.add(Sql.answer(c, sql).toString());
                }
                byThreads.add(answers);
            }
        }
        for (int q = 0; q < QUERIES.length; q++) {
            assertEquals(QUERIES[q] + ": threads 1 vs 2", byThreads.get(0).get(q), byThreads.get(1).get(q));
            assertEquals(QUERIES[q] + ": threads 1 vs 8", byThreads.get(0).get(q), byThreads.get(2).get(q));
        }
        try (Connection c = connect(8)) {
            for (String sql : QUERIES) {
                Answers.assertClose(sql + " vs Calcite over the single file", Answers.sorted(Sql.rows(plain, sql)),
                        Answers.sorted(Sql.rows(c, sql)));
            }
        }
    }

    @Test
    public void badThreadsPropertyIsAClearError() {
        try {
            DriverManager.getConnection("jdbc:vortex:" + root + ";threads=0").close();
            fail("threads=0 accepted");
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("threads must be a positive integer, not '0'"));
        }
    }

    /** 1000 files of 200k rows: far longer than the test waits before stopping it. */
    private static final String LONG = "SELECT sym, count(*), sum(price), max(ts) FROM big WHERE volume > 1 GROUP BY sym";

    @Test
    public void timeoutStopsEveryWorker() throws Exception {
        long live = NativeHeld.liveWithoutKeptCaches();
        try (Statement s = twoThreads.createStatement()) {
            s.setQueryTimeout(1);
            long t = System.nanoTime();
            try {
                s.executeQuery(LONG).close();
                fail("the aggregate ran to its end within its timeout");
            } catch (SQLTimeoutException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("timed out after 1000 ms"));
            }
            long ms = (System.nanoTime() - t) / 1_000_000;
            assertTrue("stopped after " + ms + " ms", ms >= 1000 && ms < 6_000);
        }
        assertReleased(live);
    }

    @Test
    public void cancelStopsEveryWorker() throws Exception {
        long live = NativeHeld.liveWithoutKeptCaches();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (Statement s = twoThreads.createStatement()) {
            long[] cancelledAt = new long[1];
            timer.schedule(() -> {
                cancelledAt[0] = System.nanoTime();
                s.cancel();
                return null;
            }, 500, TimeUnit.MILLISECONDS);
            try {
                s.executeQuery(LONG).close();
                fail("the cancelled aggregate ran to its end");
            } catch (SQLException e) {
                assertFalse(e instanceof SQLTimeoutException);
                assertEquals(e.getMessage(), "57014", e.getSQLState());
            }
            long ms = (System.nanoTime() - cancelledAt[0]) / 1_000_000;
            assertTrue("stopped " + ms + " ms after the cancel", ms < 3_000);
        } finally {
            timer.shutdownNow();
            timer.awaitTermination(10, TimeUnit.SECONDS);
        }
        assertReleased(live);
    }

    /** No scan thread still working (idle pooled ones may wait for work), native memory back. */
    private static void assertReleased(long liveBefore) throws InterruptedException {
        long until = System.nanoTime() + 5_000_000_000L;
        List<String> busy;
        do {
            busy = new ArrayList<>();
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                if (e.getKey().getName().startsWith("vortex4j-scan-")) {
                    for (StackTraceElement f : e.getValue()) {
                        if (f.getClassName().startsWith("io.vortex4j")) {
                            busy.add(e.getKey().getName() + " at " + f);
                            break;
                        }
                    }
                }
            }
            if (busy.isEmpty()) {
                break;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < until);
        assertTrue("scan threads still working: " + busy, busy.isEmpty());
        long live = NativeHeld.liveWithoutKeptCaches();
        for (int i = 0; i < 5 && live > liveBefore + (8 << 20); i++) {
            Thread.sleep(100); // concurrent tests free memory meanwhile
            live = NativeHeld.liveWithoutKeptCaches();
        }
        assertTrue(liveBefore + " -> " + live, live <= liveBefore + (8 << 20));
    }
}
